/* The core's transport: a socket (TCP, unix, or TLS through conn_tls.c)
 * on which every wait has a bound (SO_RCVTIMEO/SO_SNDTIMEO, or poll(2)
 * while connecting); hiredis formats the commands and parses the replies. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "qless/qless.h"
#include "client_state.h"
#include "conn.h"
#include "conn_tls.h"
#include "errors.h"
#include "url.h"

struct qless__conn {
	int fd;
	qless__tls *tls;      /* NULL: plain socket */
	redisReader *reader;
	char *out;            /* formatted commands not sent yet: out[sent..len) */
	size_t len, sent, cap;
	int ms;               /* bound on each wait; <= 0: none */
	int nonblock;         /* O_NONBLOCK: connecting, and reading what is there (try_reply, stale) */
	const char *which;    /* names the bound in errors */
	int dead;             /* an error happened: the connection cannot be used */
	int timed_out;        /* ... a wait ran out of its bound */
	int replies;          /* replies read so far */
	int cert_hint;        /* TLS without a client certificate (see get_reply) */
	char err[256];
};

/* Two system calls per guarded operation (one when the caller blocks
 * SIGPIPE itself): block, then restore. A write to a closed connection
 * raises SIGPIPE, and only a failed write does, so the pending signal is
 * taken (a third call) only after a failure. */
void qless__sigpipe_block(qless_sigpipe_guard *g)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, &g->old);
	/* Blocked already: the caller's SIGPIPEs, pending or to come, are its own. */
	g->was_blocked = sigismember(&g->old, SIGPIPE) == 1;
}

void qless__sigpipe_restore(qless_sigpipe_guard *g, int failed)
{
	if (g->was_blocked)
		return;
	if (failed) {
		sigset_t set;
		struct timespec zero = { 0, 0 };
		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		while (sigtimedwait(&set, NULL, &zero) < 0 && errno == EINTR)
			;
	}
	pthread_sigmask(SIG_SETMASK, &g->old, NULL);
}

static void fail(qless__conn *conn, const char *fmt, const char *arg)
{
	if (!conn->dead)
		snprintf(conn->err, sizeof conn->err, fmt, arg);
	conn->dead = 1;
}

static void timed_out(qless__conn *conn)
{
	if (!conn->dead)
		snprintf(conn->err, sizeof conn->err, "no answer within the %s timeout (%d ms)", conn->which, conn->ms);
	conn->dead = conn->timed_out = 1;
}

/*
 * Commands and replies go over a blocking socket whose SO_RCVTIMEO and
 * SO_SNDTIMEO hold the bound: one system call per write and per read, as
 * few as the transport allows. Connecting, the TLS handshake and reading
 * only what has arrived use O_NONBLOCK and poll(2).
 */
static int set_nonblock(qless__conn *conn, int on)
{
	int fl;
	if (conn->nonblock == on)
		return 0;
	fl = fcntl(conn->fd, F_GETFL);
	if (fl < 0 || fcntl(conn->fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK) != 0) {
		fail(conn, "%s", strerror(errno));
		return -1;
	}
	conn->nonblock = on;
	return 0;
}

static int apply_bound(qless__conn *conn)
{
	struct timeval tv = { 0, 0 }; /* zero: no bound */
	if (conn->ms > 0) {
		tv.tv_sec = conn->ms / 1000;
		tv.tv_usec = (conn->ms % 1000) * 1000;
	}
	if (setsockopt(conn->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0 ||
	    setsockopt(conn->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) != 0) {
		fail(conn, "cannot set the timeout: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Waits until fd is ready for events (POLLIN/POLLOUT) within the bound.
 * 0, or -1 with the error recorded. */
static int wait_fd(qless__conn *conn, short events)
{
	struct pollfd p;
	int n;
	p.fd = conn->fd;
	p.events = events;
	do {
		p.revents = 0;
		n = poll(&p, 1, conn->ms > 0 ? conn->ms : -1);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		fail(conn, "%s", strerror(errno));
		return -1;
	}
	if (n == 0) {
		timed_out(conn);
		return -1;
	}
	return 0;
}

/* After a read or write moved nothing (r: -1 for the plain socket, 0 for
 * TLS, errno as it left it): 0 to retry or to poll for *want (non-blocking
 * socket), -1 with the error recorded (a blocking socket's EAGAIN is its
 * bound running out). */
static ssize_t nothing_moved(qless__conn *conn, ssize_t r)
{
	if (errno == EINTR)
		return 0;
	if (r == 0 || errno == EAGAIN || errno == EWOULDBLOCK) {
		if (conn->nonblock)
			return 0;
		timed_out(conn);
		return -1;
	}
	fail(conn, "%s", strerror(errno));
	return -1;
}

/* > 0 bytes read; 0: nothing now (*want: what to poll for); -1 error. */
static ssize_t read_some(qless__conn *conn, char *buf, size_t n, short *want)
{
	ssize_t r;
	errno = 0;
	if (conn->tls != NULL) {
		r = qless__tls_read(conn->tls, buf, n, want, conn->err, sizeof conn->err);
		if (r < 0)
			conn->dead = 1;
		return r == 0 ? nothing_moved(conn, 0) : r;
	}
	*want = POLLIN;
	r = recv(conn->fd, buf, n, 0);
	if (r > 0)
		return r;
	if (r == 0) {
		fail(conn, "%s", "Server closed the connection");
		return -1;
	}
	return nothing_moved(conn, -1);
}

static ssize_t write_some(qless__conn *conn, const char *buf, size_t n, short *want)
{
	ssize_t r;
	errno = 0;
	if (conn->tls != NULL) {
		r = qless__tls_write(conn->tls, buf, n, want, conn->err, sizeof conn->err);
		if (r < 0)
			conn->dead = 1;
		return r == 0 ? nothing_moved(conn, 0) : r;
	}
	*want = POLLOUT;
	r = send(conn->fd, buf, n, MSG_NOSIGNAL);
	return r >= 0 ? r : nothing_moved(conn, -1);
}

static int flush(qless__conn *conn)
{
	while (conn->sent < conn->len) {
		short want;
		ssize_t w = write_some(conn, conn->out + conn->sent, conn->len - conn->sent, &want);
		if (w < 0)
			return -1;
		if (w == 0 && conn->nonblock && wait_fd(conn, want) != 0)
			return -1;
		conn->sent += (size_t)w;
	}
	conn->sent = conn->len = 0;
	return 0;
}

/* A complete reply from the parser: 1 (in *out), 0 none yet, -1 a
 * protocol error. */
static int parsed(qless__conn *conn, redisReply **out)
{
	void *r = NULL;
	if (redisReaderGetReply(conn->reader, &r) != REDIS_OK) {
		fail(conn, "protocol error: %s", conn->reader->errstr);
		return -1;
	}
	*out = r;
	return r != NULL;
}

static redisReply *get_reply(qless__conn *conn);

redisReply *qless__conn_get_reply(qless__conn *conn)
{
	redisReply *r = get_reply(conn);
	size_t n;
	if (r != NULL) {
		conn->replies++;
		return r;
	}
	/* Under TLS 1.3 a server that wants a client certificate says so only
	 * after the handshake, and its alert is often lost in the reset: the
	 * first reply is where the user learns it. */
	if (conn->cert_hint && conn->replies == 0 && !conn->timed_out) {
		conn->cert_hint = 0; /* once */
		n = strlen(conn->err);
		snprintf(conn->err + n, sizeof conn->err - n,
		         " (after the TLS handshake: does the server require a client certificate? ?cert=FILE&key=FILE)");
	}
	return NULL;
}

static redisReply *get_reply(qless__conn *conn)
{
	redisReply *r = NULL;
	char buf[16384];
	if (conn->dead || set_nonblock(conn, 0) != 0 || flush(conn) != 0)
		return NULL;
	for (;;) {
		short want;
		ssize_t n;
		int got = parsed(conn, &r);
		if (got != 0)
			return got > 0 ? r : NULL;
		n = read_some(conn, buf, sizeof buf, &want);
		if (n < 0)
			return NULL;
		if (n == 0) {
			if (conn->nonblock && wait_fd(conn, want) != 0)
				return NULL;
			continue;
		}
		if (redisReaderFeed(conn->reader, buf, (size_t)n) != REDIS_OK) {
			fail(conn, "protocol error: %s", conn->reader->errstr);
			return NULL;
		}
	}
}

int qless__conn_try_reply(qless__conn *conn, redisReply **out)
{
	char buf[16384];
	*out = NULL;
	if (conn->dead || set_nonblock(conn, 1) != 0)
		return QLESS_EIO;
	for (;;) {
		short want;
		ssize_t n;
		int got = parsed(conn, out);
		if (got != 0)
			return got > 0 ? QLESS_OK : QLESS_EIO;
		/* Until the socket (and the TLS layer's buffer) is empty: the
		 * caller polls the socket next. */
		n = read_some(conn, buf, sizeof buf, &want);
		if (n < 0)
			return QLESS_EIO;
		if (n == 0)
			return QLESS_OK;
		if (redisReaderFeed(conn->reader, buf, (size_t)n) != REDIS_OK) {
			fail(conn, "protocol error: %s", conn->reader->errstr);
			return QLESS_EIO;
		}
	}
}

int qless__conn_append_argv(qless__conn *conn, int argc, const char **argv, const size_t *argvlen)
{
	char *cmd = NULL;
	int n = redisFormatCommandArgv(&cmd, argc, argv, argvlen);
	if (n < 0)
		return qless__err_nomem("qless");
	if (conn->len + (size_t)n > conn->cap) {
		size_t cap = conn->cap ? conn->cap : 1024;
		char *grown;
		while (cap < conn->len + (size_t)n)
			cap *= 2;
		grown = realloc(conn->out, cap);
		if (grown == NULL) {
			redisFreeCommand(cmd);
			return qless__err_nomem("qless");
		}
		conn->out = grown;
		conn->cap = cap;
	}
	memcpy(conn->out + conn->len, cmd, (size_t)n);
	conn->len += (size_t)n;
	redisFreeCommand(cmd);
	return QLESS_OK;
}

redisReply *qless__conn_command_argv(qless__conn *conn, int argc, const char **argv, const size_t *argvlen)
{
	if (conn->dead)
		return NULL;
	if (qless__conn_append_argv(conn, argc, argv, argvlen) != QLESS_OK) {
		fail(conn, "%s", "out of memory");
		return NULL;
	}
	return qless__conn_get_reply(conn);
}

int qless__conn_bound(qless__conn *conn, int ms, const char *which)
{
	int changed = conn->ms != ms;
	conn->ms = ms;
	conn->which = which;
	if (changed && conn->fd >= 0 && !conn->dead && apply_bound(conn) != 0)
		return qless__err(QLESS_EIO, "qless: %s", conn->err);
	return QLESS_OK;
}

int qless__conn_fd(const qless__conn *conn)
{
	return conn->fd;
}

const char *qless__conn_errstr(const qless__conn *conn)
{
	return conn->err;
}

int qless__conn_stale(qless__conn *conn)
{
	int i;
	if (conn->dead || conn->len > 0 || conn->reader->pos < conn->reader->len)
		return 1;
	/* Nothing is owed on an idle connection: end of file (the server
	 * closed it, e.g. it restarted), an error, or bytes nobody asked for
	 * (a late reply) all mean it cannot carry the next command. Under TLS
	 * bytes may also be records that carry no data (session tickets the
	 * server sends after the handshake), in the socket or read ahead into
	 * the TLS layer: reading them without waiting takes those and finds
	 * anything else. */
	for (i = 0; i < 8; i++) {
		char b[512];
		short want;
		if (conn->tls == NULL || !qless__tls_pending(conn->tls)) {
			ssize_t n = recv(conn->fd, b, 1, MSG_PEEK | MSG_DONTWAIT);
			if (n < 0)
				return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
			if (n == 0 || conn->tls == NULL)
				return 1;
		}
		if (set_nonblock(conn, 1) != 0 || read_some(conn, b, sizeof b, &want) != 0)
			return 1;
	}
	return 1;
}

/* ---- connecting ---- */

/* Connects conn->fd (non-blocking) to addr within the bound; 0 or -1 with
 * errno's text in conn->err. */
static int connect_addr(qless__conn *conn, int family, const struct sockaddr *addr, socklen_t alen)
{
	int e = 0;
	socklen_t elen = sizeof e;
	conn->fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	conn->nonblock = 1;
	if (conn->fd < 0) {
		snprintf(conn->err, sizeof conn->err, "%s", strerror(errno));
		return -1;
	}
	if (connect(conn->fd, addr, alen) == 0)
		return 0;
	if (errno != EINPROGRESS) {
		snprintf(conn->err, sizeof conn->err, "%s", strerror(errno));
		return -1;
	}
	if (wait_fd(conn, POLLOUT) != 0)
		return -1;
	if (getsockopt(conn->fd, SOL_SOCKET, SO_ERROR, &e, &elen) != 0)
		e = errno;
	if (e != 0) {
		snprintf(conn->err, sizeof conn->err, "%s", strerror(e));
		return -1;
	}
	return 0;
}

static void close_fd(qless__conn *conn)
{
	if (conn->fd >= 0)
		close(conn->fd);
	conn->fd = -1;
	conn->dead = 0;
}

static int connect_tcp(qless__conn *conn, const char *host, int port)
{
	struct addrinfo hints, *res = NULL, *ai;
	char service[16];
	int rc;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(service, sizeof service, "%d", port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc != 0) {
		snprintf(conn->err, sizeof conn->err, "%s",
		         rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
		return -1;
	}
	rc = -1;
	for (ai = res; ai != NULL && rc != 0; ai = ai->ai_next) {
		close_fd(conn);
		rc = connect_addr(conn, ai->ai_family, ai->ai_addr, ai->ai_addrlen);
	}
	freeaddrinfo(res);
	if (rc == 0) {
		int one = 1;
		/* Commands are small and answered one at a time: no Nagle delay. */
		setsockopt(conn->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	}
	return rc;
}

static int connect_unix(qless__conn *conn, const char *path)
{
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sa.sun_path) {
		snprintf(conn->err, sizeof conn->err, "socket path too long");
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	return connect_addr(conn, AF_UNIX, (struct sockaddr *)&sa, sizeof sa);
}

/* AUTH or SELECT while connecting: bounded by the connect bound. */
static int setup_command(qless__conn *conn, int argc, const char **argv, const char *what, const char *where)
{
	redisReply *r = qless__conn_command_argv(conn, argc, argv, NULL);
	int rc;
	if (r == NULL)
		return qless__err(QLESS_EIO, "qless: %s on %s failed: %s", what, where, conn->err);
	if (r->type == REDIS_REPLY_ERROR) {
		rc = qless__err(QLESS_EIO, "qless: %s on %s failed: %s", what, where, r->str);
		freeReplyObject(r);
		return rc;
	}
	freeReplyObject(r);
	return QLESS_OK;
}

static int handshake(qless__conn *conn, const qless_url *u, const char *host, int select_db, const char *where)
{
	if (u->tls) {
		conn->tls = qless__tls_open(conn->fd, u, host, conn->ms, conn->err, sizeof conn->err);
		if (conn->tls == NULL)
			return qless__err(QLESS_EIO, "qless: TLS with %s failed: %s", where, conn->err);
		conn->cert_hint = u->tls_cert == NULL;
	}
	if (set_nonblock(conn, 0) != 0 || apply_bound(conn) != 0)
		return qless__err(QLESS_EIO, "qless: cannot set up the connection to %s: %s", where, conn->err);
	if (u->password != NULL) {
		const char *argv[3];
		int argc = 0;
		argv[argc++] = "AUTH";
		if (u->user != NULL)
			argv[argc++] = u->user;
		argv[argc++] = u->password;
		if (setup_command(conn, argc, argv, "AUTH", where) != QLESS_OK)
			return QLESS_EIO;
	}
	if (select_db && u->db != 0) {
		char db[16];
		const char *argv[2] = { "SELECT", db };
		snprintf(db, sizeof db, "%d", u->db);
		if (setup_command(conn, 2, argv, "SELECT", where) != QLESS_OK)
			return QLESS_EIO;
	}
	return QLESS_OK;
}

qless__conn *qless__conn_open(const qless_url *u, const char *host, int port, int select_db, int connect_ms)
{
	qless__conn *conn = calloc(1, sizeof *conn);
	char where[300];
	int rc;

	if (conn == NULL || (conn->reader = redisReaderCreate()) == NULL) {
		free(conn);
		qless__err(QLESS_ENOMEM, "qless: cannot allocate a connection");
		return NULL;
	}
	conn->fd = -1;
	qless__conn_bound(conn, connect_ms, "connect");
	if (host == NULL && u->path != NULL) {
		snprintf(where, sizeof where, "unix:%s", u->path);
		rc = connect_unix(conn, u->path);
	} else {
		if (host == NULL) {
			host = u->host;
			port = u->port;
		}
		snprintf(where, sizeof where, strchr(host, ':') ? "[%s]:%d" : "%s:%d", host, port);
		rc = connect_tcp(conn, host, port);
	}
	if (rc != 0) {
		qless__err(QLESS_EIO, "qless: cannot connect to %s: %s", where, conn->err);
		qless__conn_free(conn);
		return NULL;
	}
	if (handshake(conn, u, host, select_db, where) != QLESS_OK) {
		qless__conn_free(conn);
		return NULL;
	}
	return conn;
}

void qless__conn_free(qless__conn *conn)
{
	if (conn == NULL)
		return;
	qless__tls_free(conn->tls);
	if (conn->fd >= 0)
		close(conn->fd);
	redisReaderFree(conn->reader);
	free(conn->out);
	free(conn);
}

qless__conn *qless__connect(qless_client *c, int select_db)
{
	qless_sigpipe_guard g;
	qless__conn *conn;
	qless__sigpipe_block(&g);
	conn = qless__conn_open(&c->url, NULL, 0, select_db, c->connect_timeout_ms);
	qless__sigpipe_restore(&g, conn == NULL);
	return conn;
}

int qless__io_error(qless_client *c, const char *what)
{
	int rc;
	if (c->conn != NULL) {
		const char *why = qless__conn_errstr(c->conn);
		rc = qless__err(QLESS_EIO, "%s: connection error: %s", what, why[0] ? why : "no reply");
		qless__conn_free(c->conn);
		c->conn = NULL;
	} else {
		rc = qless__err(QLESS_EIO, "%s: not connected", what);
	}
	return rc;
}
