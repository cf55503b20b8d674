// What Glibc's Swift module does not expose to Swift: epoll, eventfd, inotify and the GNU-only
// accept4, renameat2 and getdents64. Includes and one-line wrappers only.
#ifndef C_SYSTEM_SHIMS_H
#define C_SYSTEM_SHIMS_H

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <pthread.h>
#include <malloc.h>
#include <stdio.h>
#include <fcntl.h>
#include <sys/file.h>
#include <dirent.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// renameat2(2) with RENAME_EXCHANGE, both paths relative to the working directory: swaps the
/// two names in one step. GNU-only (glibc 2.28), hence wrapped.
int CSystemShims_renameExchange(const char *from, const char *to);

/// accept4(2) with SOCK_NONBLOCK|SOCK_CLOEXEC set by the caller; GNU-only, hence wrapped.
int CSystemShims_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/// getdents64(2) on an open folder: a listing with no DIR stream and no duplicate descriptor.
/// GNU-only (glibc 2.30), hence wrapped.
ssize_t CSystemShims_getdents64(int fd, void *buffer, size_t length);

/// The EPOLLET flag as an unsigned value (the enum constant does not fit Int32 in Swift).
extern const uint32_t CSystemShims_EPOLLET;

#ifdef __cplusplus
}
#endif

#endif
