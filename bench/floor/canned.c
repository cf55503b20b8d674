#define _GNU_SOURCE
// The floor for bench/http-bench.py: the least a server can do for this benchmark. One
// epoll loop per thread, each with its own SO_REUSEPORT listener (as aasa-server runs),
// answering every "\r\n\r\n" it reads with one canned response, parsing nothing else;
// with a certificate and key it speaks TLS through OpenSSL. Keep-alive only.
//
//   canned PORT THREADS BODY-FILE [CERT KEY]
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

static char *response;
static size_t response_length;
static int port;
static SSL_CTX *tls;

typedef struct {
    int fd;
    SSL *ssl;
    int matched;  // how much of "\r\n\r\n" the last bytes matched
} connection;

static int listener(void) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(0x7f000001)};
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, 4096) != 0) {
        perror("listen");
        exit(1);
    }
    return fd;
}

// Counts complete request heads in `data`, carrying a partial "\r\n\r\n" across reads.
static int heads(connection *c, const char *data, ssize_t length) {
    static const char end[] = "\r\n\r\n";
    int count = 0;
    for (ssize_t i = 0; i < length; i++) {
        if (data[i] == end[c->matched]) {
            if (++c->matched == 4) { count++; c->matched = 0; }
        } else {
            c->matched = data[i] == '\r' ? 1 : 0;
        }
    }
    return count;
}

static void finish(int epoll, connection *c) {
    epoll_ctl(epoll, EPOLL_CTL_DEL, c->fd, NULL);
    if (c->ssl) SSL_free(c->ssl);
    close(c->fd);
    free(c);
}

// Reads what is there and answers each head; a response that does not fit the socket is
// dropped with the connection (wrk's requests are small and its buffers large).
static void serve(int epoll, connection *c) {
    char buffer[16384];
    for (;;) {
        ssize_t got;
        if (c->ssl) {
            got = SSL_read(c->ssl, buffer, sizeof buffer);
            if (got <= 0) {
                int error = SSL_get_error(c->ssl, (int)got);
                if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) return;
                finish(epoll, c);
                return;
            }
        } else {
            got = read(c->fd, buffer, sizeof buffer);
            if (got < 0 && errno == EAGAIN) return;
            if (got <= 0) { finish(epoll, c); return; }
        }
        for (int n = heads(c, buffer, got); n > 0; n--) {
            ssize_t sent = c->ssl ? SSL_write(c->ssl, response, (int)response_length)
                                  : write(c->fd, response, response_length);
            if (sent != (ssize_t)response_length) { finish(epoll, c); return; }
        }
    }
}

static void *loop(void *unused) {
    (void)unused;
    int fd = listener(), epoll = epoll_create1(0);
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
    struct epoll_event events[256];
    for (;;) {
        int ready = epoll_wait(epoll, events, 256, -1);
        for (int i = 0; i < ready; i++) {
            connection *c = events[i].data.ptr;
            if (c) { serve(epoll, c); continue; }
            int client;
            while ((client = accept4(fd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                int one = 1;
                setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                c = calloc(1, sizeof *c);
                c->fd = client;
                if (tls) {
                    c->ssl = SSL_new(tls);
                    SSL_set_fd(c->ssl, client);
                    SSL_set_accept_state(c->ssl);
                }
                struct epoll_event add = {.events = EPOLLIN | EPOLLET, .data.ptr = c};
                epoll_ctl(epoll, EPOLL_CTL_ADD, client, &add);
                serve(epoll, c);
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 6) {
        fprintf(stderr, "usage: canned PORT THREADS BODY-FILE [CERT KEY]\n");
        return 2;
    }
    port = atoi(argv[1]);
    int threads = atoi(argv[2]);
    FILE *file = fopen(argv[3], "rb");
    if (!file) { perror(argv[3]); return 1; }
    char body[262144];
    size_t length = fread(body, 1, sizeof body, file);
    fclose(file);
    response = malloc(length + 256);
    response_length = (size_t)snprintf(response, 256,
        "HTTP/1.1 200 OK\r\nServer: floor\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n", length);
    memcpy(response + response_length, body, length);
    response_length += length;
    if (argc == 6) {
        tls = SSL_CTX_new(TLS_server_method());
        SSL_CTX_set_min_proto_version(tls, TLS1_2_VERSION);
        if (SSL_CTX_use_certificate_chain_file(tls, argv[4]) != 1 ||
            SSL_CTX_use_PrivateKey_file(tls, argv[5], SSL_FILETYPE_PEM) != 1) {
            ERR_print_errors_fp(stderr);
            return 1;
        }
    }
    pthread_t thread;
    for (int i = 1; i < threads; i++) pthread_create(&thread, NULL, loop, NULL);
    loop(NULL);
}
