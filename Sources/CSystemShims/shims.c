#ifndef _GNU_SOURCE
#error You must define _GNU_SOURCE (Package.swift sets it for this target)
#endif

#include "CSystemShims.h"

int CSystemShims_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(fd, address, length, flags);
}

const uint32_t CSystemShims_EPOLLET = EPOLLET;

int CSystemShims_renameExchange(const char *from, const char *to) { return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE); }

ssize_t CSystemShims_getdents64(int fd, void *buffer, size_t length) { return getdents64(fd, buffer, length); }
