// One-line wrappers for OpenSSL macros and inline functions the Swift importer cannot see
// (macros and static inline functions). No logic lives here.
#ifndef C_OPENSSL_SHIMS_H
#define C_OPENSSL_SHIMS_H

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#ifdef __cplusplus
extern "C" {
#endif

long COpenSSLShims_SSL_CTX_set_mode(SSL_CTX *context, long mode);
long COpenSSLShims_SSL_set_mode(SSL *ssl, long mode);
long COpenSSLShims_SSL_clear_mode(SSL *ssl, long mode);
long COpenSSLShims_SSL_CTX_set_min_proto_version(SSL_CTX *context, int version);
long COpenSSLShims_SSL_CTX_set_max_proto_version(SSL_CTX *context, int version);
long COpenSSLShims_SSL_CTX_set_session_cache_mode(SSL_CTX *context, long mode);
void COpenSSLShims_SSL_CTX_set_read_ahead(SSL_CTX *context, int yes);
int COpenSSLShims_sk_GENERAL_NAME_num(const GENERAL_NAMES *names);
const GENERAL_NAME *COpenSSLShims_sk_GENERAL_NAME_value(const GENERAL_NAMES *names, int index);
void COpenSSLShims_GENERAL_NAMES_free(GENERAL_NAMES *names);
void *COpenSSLShims_X509_get_subject_alt_names(const X509 *certificate);
int COpenSSLShims_sk_X509_num(const STACK_OF(X509) *certificates);
void COpenSSLShims_sk_X509_pop_free(STACK_OF(X509) *certificates);
STACK_OF(X509) *COpenSSLShims_sk_X509_new_null(void);
int COpenSSLShims_sk_X509_push(STACK_OF(X509) *certificates, X509 *certificate);
long COpenSSLShims_SSL_set_tlsext_host_name(SSL *ssl, const char *name);
long COpenSSLShims_SSL_CTX_sess_set_cache_size(SSL_CTX *context, long size);
long COpenSSLShims_SSL_CTX_set1_groups_list(SSL_CTX *context, const char *groups);
STACK_OF(X509_EXTENSION) *COpenSSLShims_sk_X509_EXTENSION_new_null(void);
int COpenSSLShims_sk_X509_EXTENSION_push(STACK_OF(X509_EXTENSION) *extensions, X509_EXTENSION *extension);
void COpenSSLShims_sk_X509_EXTENSION_pop_free(STACK_OF(X509_EXTENSION) *extensions);
int COpenSSLShims_SSL_set_app_data(SSL *ssl, void *data);
void *COpenSSLShims_SSL_get_app_data(const SSL *ssl);

extern const uint64_t COpenSSLShims_SSL_OP_NO_RENEGOTIATION;
extern const uint64_t COpenSSLShims_SSL_OP_CIPHER_SERVER_PREFERENCE;
extern const uint64_t COpenSSLShims_SSL_OP_NO_COMPRESSION;
extern const uint64_t COpenSSLShims_SSL_OP_IGNORE_UNEXPECTED_EOF;
extern const uint64_t COpenSSLShims_SSL_OP_NO_TICKET;
extern const uint64_t COpenSSLShims_SSL_OP_PRIORITIZE_CHACHA;
extern const long COpenSSLShims_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER;
extern const long COpenSSLShims_SSL_MODE_ENABLE_PARTIAL_WRITE;
extern const long COpenSSLShims_SSL_MODE_RELEASE_BUFFERS;
extern const long COpenSSLShims_SSL_SESS_CACHE_SERVER;
extern const int COpenSSLShims_SSL_CLIENT_HELLO_RETRY;

#ifdef __cplusplus
}
#endif

#endif
