/*
 * Running a shell command for a job: /bin/sh -c CMD with text on its
 * stdin, extra environment variables, and the tail of its stderr kept.
 * Safe on several threads at once (posix_spawn, descriptors close-on-exec).
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

extern char **environ;

/* environ without the variables `extra` sets, then `extra` ("NAME=value",
 * NULL-terminated). The strings are borrowed; free only the array. */
static char **environment(char *const *extra)
{
	size_t n = 0, k = 0, nextra = 0;
	while (environ[n])
		n++;
	while (extra[nextra])
		nextra++;
	char **env = calloc(n + nextra + 1, sizeof *env);
	if (env == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		int replaced = 0;
		for (size_t j = 0; j < nextra && !replaced; j++) {
			size_t len = strcspn(extra[j], "=") + 1;
			replaced = strncmp(environ[i], extra[j], len) == 0;
		}
		if (!replaced)
			env[k++] = environ[i];
	}
	for (size_t j = 0; j < nextra; j++)
		env[k++] = extra[j];
	return env;
}

/* Appends to the tail, which keeps only the last SHELL_TAIL_SIZE bytes. */
static void keep_tail(shell_tail *t, const char *data, size_t n)
{
	if (n >= SHELL_TAIL_SIZE) {
		memcpy(t->text, data + n - SHELL_TAIL_SIZE, SHELL_TAIL_SIZE);
		t->len = SHELL_TAIL_SIZE;
		t->cut = 1;
		return;
	}
	if (t->len + n > SHELL_TAIL_SIZE) {
		size_t drop = t->len + n - SHELL_TAIL_SIZE;
		memmove(t->text, t->text + drop, t->len - drop);
		t->len -= drop;
		t->cut = 1;
	}
	memcpy(t->text + t->len, data, n);
	t->len += n;
}

/* Feeds input to the child and collects its stderr until both are done;
 * a child that stops reading early only ends the feeding. */
static void exchange(int in, int err, const char *input, shell_tail *tail)
{
	size_t left = strlen(input);
	char buf[4096];
	if (left == 0) {
		close(in);
		in = -1;
	}
	while (err >= 0) {
		struct pollfd p[2] = { { err, POLLIN, 0 }, { in, POLLOUT, 0 } };
		if (poll(p, in >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (in >= 0 && (p[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
			ssize_t w = write(in, input, left);
			if (w > 0) {
				input += w;
				left -= (size_t)w;
			}
			if ((w < 0 && errno != EAGAIN && errno != EINTR) || left == 0) {
				close(in);
				in = -1;
			}
		}
		if (p[0].revents & (POLLIN | POLLERR | POLLHUP)) {
			ssize_t r = read(err, buf, sizeof buf);
			if (r > 0) {
				keep_tail(tail, buf, (size_t)r);
			} else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
				close(err);
				err = -1;
			}
		}
	}
	if (in >= 0)
		close(in);
}

int shell_run(const char *cmd, const char *input, char *const *extra_env, int *status, shell_tail *tail)
{
	int in[2] = { -1, -1 }, err[2] = { -1, -1 }, rc = 0;
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	char **env = environment(extra_env);
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, defaults;
	pid_t pid;

	memset(tail, 0, sizeof *tail);
	if (env == NULL)
		return ENOMEM;
	/* Close-on-exec from the start: a command spawned meanwhile by another
	 * thread must not inherit this one's pipes (it would hold them open). */
	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
		rc = errno;
		for (int i = 0; i < 2; i++) {
			if (in[i] >= 0)
				close(in[i]);
			if (err[i] >= 0)
				close(err[i]);
		}
		free(env);
		return rc;
	}
	fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	/* The calling thread blocks every signal (the engine's pool) and the
	 * listener ignores SIGPIPE: the command starts with neither. */
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigemptyset(&defaults);
	sigaddset(&defaults, SIGPIPE);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &defaults);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawn(&pid, "/bin/sh", &fa, &attr, argv, env);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	close(in[0]);
	close(err[1]);
	if (rc != 0) {
		close(in[1]);
		close(err[0]);
		return rc;
	}
	exchange(in[1], err[0], input, tail);
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return errno;
	return 0;
}

/* Length of the valid UTF-8 sequence (RFC 3629) at p, or 0. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned int c = p[0], cp, min;
	size_t len;
	if (c < 0x80)
		return c != 0;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2, cp = c & 0x1F, min = 0x80;
	else if (c >= 0xE0 && c <= 0xEF)
		len = 3, cp = c & 0x0F, min = 0x800;
	else if (c >= 0xF0 && c <= 0xF4)
		len = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3F);
	}
	return cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ? 0 : len;
}

void shell_tail_text(const shell_tail *t, char *out)
{
	const unsigned char *p = (const unsigned char *)t->text, *end = p + t->len;
	/* A cut may have split a character: its remaining bytes go. */
	for (int i = 0; t->cut && i < 3 && p < end && (*p & 0xC0) == 0x80; i++)
		p++;
	while (p < end) {
		size_t n = utf8_seq(p, (size_t)(end - p));
		if (n == 0) {
			*out++ = '?'; /* the protocol's text is UTF-8 */
			p++;
			continue;
		}
		memcpy(out, p, n);
		out += n;
		p += n;
	}
	*out = '\0';
}
