/* Clock, jids and the default worker name. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

double qless__now(const qless_client *c)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + c->offset;
}

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

int qless__make_jid(char out[33])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char b[16];
	size_t i;
	if (random_bytes(b, sizeof b) != 0)
		return qless__err(QLESS_EIO, "qless: no random bytes for a jid");
	for (i = 0; i < 16; i++) {
		out[2 * i] = hex[b[i] >> 4];
		out[2 * i + 1] = hex[b[i] & 15];
	}
	out[32] = '\0';
	return QLESS_OK;
}

char *qless__default_worker_name(void)
{
	char host[256];
	char buf[300];
	if (gethostname(host, sizeof host) != 0 || host[0] == '\0')
		strcpy(host, "localhost");
	host[sizeof host - 1] = '\0';
	snprintf(buf, sizeof buf, "%s-%ld", host, (long)getpid());
	return qless__strdup(buf);
}
