#include "COpenSSLShims.h"

long COpenSSLShims_SSL_CTX_set_mode(SSL_CTX *context, long mode) { return SSL_CTX_set_mode(context, mode); }

long COpenSSLShims_SSL_set_mode(SSL *ssl, long mode) { return SSL_set_mode(ssl, mode); }

long COpenSSLShims_SSL_clear_mode(SSL *ssl, long mode) { return SSL_clear_mode(ssl, mode); }

long COpenSSLShims_SSL_CTX_set_min_proto_version(SSL_CTX *context, int version) { return SSL_CTX_set_min_proto_version(context, version); }

long COpenSSLShims_SSL_CTX_set_max_proto_version(SSL_CTX *context, int version) { return SSL_CTX_set_max_proto_version(context, version); }

long COpenSSLShims_SSL_CTX_set_session_cache_mode(SSL_CTX *context, long mode) { return SSL_CTX_set_session_cache_mode(context, mode); }

void COpenSSLShims_SSL_CTX_set_read_ahead(SSL_CTX *context, int yes) { SSL_CTX_set_read_ahead(context, yes); }

int COpenSSLShims_sk_GENERAL_NAME_num(const GENERAL_NAMES *names) { return sk_GENERAL_NAME_num(names); }

const GENERAL_NAME *COpenSSLShims_sk_GENERAL_NAME_value(const GENERAL_NAMES *names, int index) { return sk_GENERAL_NAME_value(names, index); }

void COpenSSLShims_GENERAL_NAMES_free(GENERAL_NAMES *names) { GENERAL_NAMES_free(names); }

void *COpenSSLShims_X509_get_subject_alt_names(const X509 *certificate) { return X509_get_ext_d2i(certificate, NID_subject_alt_name, NULL, NULL); }

int COpenSSLShims_sk_X509_num(const STACK_OF(X509) *certificates) { return sk_X509_num(certificates); }

void COpenSSLShims_sk_X509_pop_free(STACK_OF(X509) *certificates) { sk_X509_pop_free(certificates, X509_free); }

STACK_OF(X509) *COpenSSLShims_sk_X509_new_null(void) { return sk_X509_new_null(); }

int COpenSSLShims_sk_X509_push(STACK_OF(X509) *certificates, X509 *certificate) { return sk_X509_push(certificates, certificate); }

long COpenSSLShims_SSL_set_tlsext_host_name(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }

const uint64_t COpenSSLShims_SSL_OP_NO_RENEGOTIATION = SSL_OP_NO_RENEGOTIATION;
const uint64_t COpenSSLShims_SSL_OP_CIPHER_SERVER_PREFERENCE = SSL_OP_CIPHER_SERVER_PREFERENCE;
const uint64_t COpenSSLShims_SSL_OP_NO_COMPRESSION = SSL_OP_NO_COMPRESSION;
const uint64_t COpenSSLShims_SSL_OP_IGNORE_UNEXPECTED_EOF = SSL_OP_IGNORE_UNEXPECTED_EOF;
const uint64_t COpenSSLShims_SSL_OP_NO_TICKET = SSL_OP_NO_TICKET;
const uint64_t COpenSSLShims_SSL_OP_PRIORITIZE_CHACHA = SSL_OP_PRIORITIZE_CHACHA;
const long COpenSSLShims_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER = SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER;
const long COpenSSLShims_SSL_MODE_ENABLE_PARTIAL_WRITE = SSL_MODE_ENABLE_PARTIAL_WRITE;
const long COpenSSLShims_SSL_MODE_RELEASE_BUFFERS = SSL_MODE_RELEASE_BUFFERS;
const long COpenSSLShims_SSL_SESS_CACHE_SERVER = SSL_SESS_CACHE_SERVER;

long COpenSSLShims_SSL_CTX_sess_set_cache_size(SSL_CTX *context, long size) { return SSL_CTX_sess_set_cache_size(context, size); }

long COpenSSLShims_SSL_CTX_set1_groups_list(SSL_CTX *context, const char *groups) { return SSL_CTX_set1_groups_list(context, groups); }

STACK_OF(X509_EXTENSION) *COpenSSLShims_sk_X509_EXTENSION_new_null(void) { return sk_X509_EXTENSION_new_null(); }

int COpenSSLShims_sk_X509_EXTENSION_push(STACK_OF(X509_EXTENSION) *extensions, X509_EXTENSION *extension) { return sk_X509_EXTENSION_push(extensions, extension); }

void COpenSSLShims_sk_X509_EXTENSION_pop_free(STACK_OF(X509_EXTENSION) *extensions) { sk_X509_EXTENSION_pop_free(extensions, X509_EXTENSION_free); }

int COpenSSLShims_SSL_set_app_data(SSL *ssl, void *data) { return SSL_set_app_data(ssl, data); }

void *COpenSSLShims_SSL_get_app_data(const SSL *ssl) { return SSL_get_app_data(ssl); }

const int COpenSSLShims_SSL_CLIENT_HELLO_RETRY = SSL_CLIENT_HELLO_RETRY;
