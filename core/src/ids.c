/* The names libqless makes up: jids and the default worker name. */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "qless/qless.h"
#include "errors.h"
#include "ids.h"
#include "util.h"

static int random_bytes(unsigned char *buf, size_t n)
{
	size_t got = 0;
	int fd;
	while (got < n) {
		ssize_t r = getrandom(buf + got, n - got, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		got += (size_t)r;
	}
	if (got == n)
		return 0;
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	got = 0;
	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	return got == n ? 0 : -1;
}

/* The jid's leading 52 bits: 2^52 - 1 minus the microseconds since the
 * epoch (positive until the year 2112), and strictly decreasing within the
 * process, whatever the clock does, so that a jid made later sorts lower. */
static uint64_t jid_countdown(void)
{
	static _Atomic uint64_t last = UINT64_C(1) << 52;
	const uint64_t top = (UINT64_C(1) << 52) - 1;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
	uint64_t want = us < top ? top - us : 0;
	uint64_t prev = atomic_load(&last);
	for (;;) {
		uint64_t next = want < prev ? want : prev - 1;
		if (atomic_compare_exchange_weak(&last, &prev, next))
			return next;
	}
}

int qless__make_jid(char out[QLESS_JID_SIZE])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char b[10];
	uint64_t head = jid_countdown();
	int i;
	if (random_bytes(b, sizeof b) != 0)
		return qless__err(QLESS_EIO, "qless: no random bytes for a jid");
	/* 13 hex digits of the countdown, then 19 of the 80 random bits. */
	for (i = 12; i >= 0; i--) {
		out[i] = hex[head & 15];
		head >>= 4;
	}
	for (i = 0; i < 19; i++)
		out[13 + i] = hex[(b[i / 2] >> (i % 2 ? 0 : 4)) & 15];
	out[32] = '\0';
	return QLESS_OK;
}

int qless_jid_generate(char out[QLESS_JID_SIZE])
{
	if (out == NULL)
		return qless__err(QLESS_EINVAL, "qless_jid_generate: out is NULL");
	return qless__make_jid(out);
}

char *qless__default_worker_name(void)
{
	char host[256];
	char buf[300];
	if (gethostname(host, sizeof host) != 0 || host[0] == '\0')
		strcpy(host, "localhost");
	host[sizeof host - 1] = '\0';
	/* The name goes out with every pop: a hostname that is not UTF-8 (or
	 * was cut inside a character) would make each of them fail. */
	if (!qless__utf8_valid(host))
		strcpy(host, "localhost");
	snprintf(buf, sizeof buf, "%s-%ld", host, (long)getpid());
	return qless__strdup(buf);
}
