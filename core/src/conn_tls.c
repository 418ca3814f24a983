/* TLS for conn.c with OpenSSL: verification is on unless the URL says
 * ?insecure, and a failure says what failed in words a user can act on. */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "conn_tls.h"

struct qless__tls {
	SSL_CTX *ctx;
	SSL *ssl;
};

/* The first error OpenSSL queued on this thread, as its reason text. */
static void ssl_reason(char *err, size_t size, const char *what)
{
	unsigned long e = ERR_get_error();
	const char *why = e ? ERR_reason_error_string(e) : NULL;
	char buf[256];
	if (e != 0 && why == NULL) {
		ERR_error_string_n(e, buf, sizeof buf);
		why = buf;
	}
	snprintf(err, size, "%s: %s", what, why ? why : (errno ? strerror(errno) : "connection closed by the server"));
	ERR_clear_error();
}

static void verify_failure(char *err, size_t size, long v, const char *host)
{
	switch (v) {
	case X509_V_ERR_HOSTNAME_MISMATCH:
		snprintf(err, size, "host name mismatch: the server's certificate is not for %s", host);
		break;
	case X509_V_ERR_IP_ADDRESS_MISMATCH:
		snprintf(err, size, "host name mismatch: the server's certificate is not for the address %s", host);
		break;
	case X509_V_ERR_CERT_HAS_EXPIRED:
		snprintf(err, size, "certificate verify failed: the server's certificate has expired");
		break;
	default:
		snprintf(err, size, "certificate verify failed: %s (?ca=FILE names the CA that signed it)",
		         X509_verify_cert_error_string(v));
	}
}

static int is_ip(const char *host)
{
	unsigned char buf[sizeof(struct in6_addr)];
	return inet_pton(AF_INET, host, buf) == 1 || inet_pton(AF_INET6, host, buf) == 1;
}

static int setup_ctx(qless__tls *t, const qless_url *u, char *err, size_t size)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	t->ctx = ctx;
	if (ctx == NULL) {
		ssl_reason(err, size, "cannot set up TLS");
		return -1;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	/* flush() retries a write with the same bytes, not always at the same
	 * address once more was appended. */
	SSL_CTX_set_mode(ctx, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_ENABLE_PARTIAL_WRITE);
	/* A reply's record in one read(2), not its header and then its body. */
	SSL_CTX_set_read_ahead(ctx, 1);
	if (!u->tls_insecure) {
		SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
		if (u->tls_ca != NULL) {
			if (SSL_CTX_load_verify_locations(ctx, u->tls_ca, NULL) != 1) {
				char what[300];
				snprintf(what, sizeof what, "cannot read the CA file %s", u->tls_ca);
				ssl_reason(err, size, what);
				return -1;
			}
		} else if (SSL_CTX_set_default_verify_paths(ctx) != 1) {
			ssl_reason(err, size, "cannot load the system's CA certificates");
			return -1;
		}
	}
	if (u->tls_cert != NULL) {
		const char *key = u->tls_key != NULL ? u->tls_key : u->tls_cert;
		char what[300];
		if (SSL_CTX_use_certificate_chain_file(ctx, u->tls_cert) != 1) {
			snprintf(what, sizeof what, "cannot read the client certificate %s", u->tls_cert);
			ssl_reason(err, size, what);
			return -1;
		}
		if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1 || SSL_CTX_check_private_key(ctx) != 1) {
			snprintf(what, sizeof what, "cannot use the client key %s", key);
			ssl_reason(err, size, what);
			return -1;
		}
	}
	return 0;
}

static int setup_ssl(qless__tls *t, int fd, const qless_url *u, const char *host, char *err, size_t size)
{
	int ip = is_ip(host), ok;
	t->ssl = SSL_new(t->ctx);
	if (t->ssl == NULL || SSL_set_fd(t->ssl, fd) != 1) {
		ssl_reason(err, size, "cannot set up TLS");
		return -1;
	}
	/* SNI carries names only. */
	if (!ip && SSL_set_tlsext_host_name(t->ssl, host) != 1) {
		ssl_reason(err, size, "cannot set the TLS server name");
		return -1;
	}
	if (u->tls_insecure)
		return 0;
	ok = ip ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(t->ssl), host) : SSL_set1_host(t->ssl, host);
	if (ok != 1) {
		ssl_reason(err, size, "cannot set the host name to verify");
		return -1;
	}
	return 0;
}

static int wait_fd(int fd, short events, int ms)
{
	struct pollfd p;
	int n;
	p.fd = fd;
	p.events = events;
	do {
		p.revents = 0;
		n = poll(&p, 1, ms > 0 ? ms : -1);
	} while (n < 0 && errno == EINTR);
	return n;
}

static int run_handshake(qless__tls *t, int fd, const char *host, int ms, char *err, size_t size)
{
	for (;;) {
		int r, e, n;
		ERR_clear_error();
		errno = 0;
		r = SSL_connect(t->ssl);
		if (r == 1)
			return 0;
		e = SSL_get_error(t->ssl, r);
		if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
			n = wait_fd(fd, e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, ms);
			if (n == 0) {
				snprintf(err, size, "no answer within the connect timeout (%d ms) during the TLS handshake", ms);
				return -1;
			}
			if (n < 0) {
				snprintf(err, size, "%s", strerror(errno));
				return -1;
			}
			continue;
		}
		if (SSL_get_verify_result(t->ssl) != X509_V_OK) {
			verify_failure(err, size, SSL_get_verify_result(t->ssl), host);
			ERR_clear_error();
		} else {
			ssl_reason(err, size, "TLS handshake failed");
		}
		return -1;
	}
}

qless__tls *qless__tls_open(int fd, const qless_url *u, const char *host, int ms, char *err, size_t size)
{
	qless__tls *t = calloc(1, sizeof *t);
	if (t == NULL) {
		snprintf(err, size, "out of memory");
		return NULL;
	}
	ERR_clear_error();
	if (setup_ctx(t, u, err, size) != 0 || setup_ssl(t, fd, u, host, err, size) != 0 ||
	    run_handshake(t, fd, host, ms, err, size) != 0) {
		qless__tls_free(t);
		return NULL;
	}
	return t;
}

/* After SSL_read or SSL_write returned r <= 0. */
static ssize_t io_failure(qless__tls *t, int r, short *want, char *err, size_t size)
{
	int e = SSL_get_error(t->ssl, r);
	switch (e) {
	case SSL_ERROR_WANT_READ:
		*want = POLLIN;
		return 0;
	case SSL_ERROR_WANT_WRITE:
		*want = POLLOUT;
		return 0;
	case SSL_ERROR_ZERO_RETURN:
		snprintf(err, size, "Server closed the connection");
		return -1;
	case SSL_ERROR_SYSCALL:
		if (ERR_peek_error() == 0) {
			snprintf(err, size, "%s", errno && r < 0 ? strerror(errno) : "Server closed the connection");
			return -1;
		}
		/* fall through */
	default:
		ssl_reason(err, size, "TLS error");
		return -1;
	}
}

ssize_t qless__tls_read(qless__tls *t, void *buf, size_t n, short *want, char *err, size_t size)
{
	int r;
	ERR_clear_error();
	errno = 0;
	r = SSL_read(t->ssl, buf, n > INT_MAX ? INT_MAX : (int)n);
	return r > 0 ? r : io_failure(t, r, want, err, size);
}

ssize_t qless__tls_write(qless__tls *t, const void *buf, size_t n, short *want, char *err, size_t size)
{
	int r;
	ERR_clear_error();
	errno = 0;
	r = SSL_write(t->ssl, buf, n > INT_MAX ? INT_MAX : (int)n);
	return r > 0 ? r : io_failure(t, r, want, err, size);
}

int qless__tls_pending(const qless__tls *t)
{
	return SSL_has_pending(t->ssl);
}

void qless__tls_free(qless__tls *t)
{
	if (t == NULL)
		return;
	SSL_free(t->ssl);
	SSL_CTX_free(t->ctx);
	free(t);
}
