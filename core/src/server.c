/* The embedded server: a private redis-server on a unix socket in a state
 * directory, started on demand and persisted with an append-only file. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "qless/qless.h"
#include "conn.h"
#include "errors.h"
#include "util.h"

/* sun_path is 108 bytes including the terminating NUL. */
#define SOCKET_PATH_MAX 107
#define START_WAIT_MS 10000
#define STOP_WAIT_MS 15000

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	if (p != NULL)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static char *default_dir(void)
{
	const char *v;
	if ((v = getenv("QLESS_HOME")) != NULL && *v)
		return qless__strdup(v);
	if ((v = getenv("XDG_STATE_HOME")) != NULL && *v)
		return join(v, "qless");
	if ((v = getenv("HOME")) != NULL && *v)
		return join(v, ".local/state/qless");
	return NULL;
}

int qless_server_dir(char **out)
{
	static const char F[] = "qless_server_dir";
	QLESS_CHECK_NULL(F, out);
	if ((*out = default_dir()) == NULL)
		return qless__err(QLESS_EINVAL, "%s: none of QLESS_HOME, XDG_STATE_HOME or HOME is set", F);
	return QLESS_OK;
}

/* The directory to use (owned), dir itself or the default. */
static int resolve(const char *F, const char *dir, char **out)
{
	*out = NULL;
	if (dir != NULL && *dir == '\0')
		return qless__err_empty(F, "dir");
	if (dir != NULL)
		*out = qless__strdup(dir);
	else if ((*out = default_dir()) == NULL)
		return qless__err(QLESS_EINVAL, "%s: none of QLESS_HOME, XDG_STATE_HOME or HOME is set", F);
	return *out ? QLESS_OK : qless__err_nomem(F);
}

static int mkdirs(const char *path)
{
	char *p = qless__strdup(path), *s;
	int rc = 0;
	if (p == NULL)
		return -1;
	for (s = p + 1; rc == 0; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST)
			rc = -1;
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return rc;
}

/* Files the server keeps (data, log, config) are for their owner alone:
 * under d and one directory down (appendonlydir), directories become 0700
 * and regular files 0600, whatever an older version or umask left. */
static void make_private(const char *d, int depth)
{
	DIR *dir = opendir(d);
	struct dirent *e;
	if (dir == NULL)
		return;
	while ((e = readdir(dir)) != NULL) {
		struct stat st;
		char *path;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || (path = join(d, e->d_name)) == NULL)
			continue;
		if (lstat(path, &st) == 0 && st.st_uid == geteuid()) {
			if (S_ISREG(st.st_mode) && (st.st_mode & 077) != 0)
				chmod(path, 0600);
			else if (S_ISDIR(st.st_mode) && depth > 0) {
				if ((st.st_mode & 077) != 0)
					chmod(path, 0700);
				make_private(path, depth - 1);
			}
		}
		free(path);
	}
	closedir(dir);
}

/* The server's directory must be private: one of ours is made 0700; a
 * shared one (another owner's, or sticky like /tmp) is refused, never
 * changed. */
static int private_dir(const char *F, const char *d)
{
	struct stat st;
	if (stat(d, &st) != 0)
		return qless__err(QLESS_EIO, "%s: cannot read %s: %s", F, d, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return qless__err(QLESS_EINVAL, "%s: %s is not a directory", F, d);
	if (st.st_uid != geteuid() || (st.st_mode & 01000) != 0) /* 01000: sticky (XSI's S_ISVTX) */
		return qless__err(QLESS_EINVAL, "%s: %s is shared (mode %04o, owner %ld): choose a private directory "
		                  "for the embedded server", F, d, (unsigned)(st.st_mode & 07777), (long)st.st_uid);
	if ((st.st_mode & 077) != 0 && chmod(d, 0700) != 0)
		return qless__err(QLESS_EIO, "%s: cannot make %s private: %s", F, d, strerror(errno));
	make_private(d, 1);
	return QLESS_OK;
}

/* Alive and not a zombie (a daemon whose parent does not reap it lingers
 * as one after it exits). */
static int alive(pid_t pid)
{
	char path[64], buf[512];
	FILE *f;
	if (pid <= 0 || (kill(pid, 0) != 0 && errno != EPERM))
		return 0;
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return 1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *close_paren = strrchr(buf, ')');
	return !(close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z');
}

static pid_t read_pid(const char *dir)
{
	char *path = join(dir, "redis.pid");
	long pid = 0;
	FILE *f = path ? fopen(path, "r") : NULL;
	if (f != NULL) {
		if (fscanf(f, "%ld", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	free(path);
	return (pid_t)pid;
}

/* One command on the server's socket, within ms; NULL if it does not
 * answer (no error is left recorded: the caller decides what that means). */
static redisReply *unix_command(const char *sock, const char *cmd, int ms)
{
	qless_url u;
	qless__conn *conn;
	redisReply *r = NULL;
	qless_sigpipe_guard g;
	qless__err_saved saved;
	qless__err_save(&saved);
	memset(&u, 0, sizeof u);
	u.path = (char *)sock;
	qless__sigpipe_block(&g);
	conn = qless__conn_open(&u, NULL, 0, 0, ms);
	if (conn != NULL)
		r = qless__conn_command_argv(conn, 1, &cmd, NULL);
	qless__sigpipe_restore(&g, r == NULL);
	qless__conn_free(conn);
	qless__err_restore(&saved);
	return r;
}

static int answers(const char *sock)
{
	redisReply *r = unix_command(sock, "PING", 1000);
	int ok = r != NULL && r->type == REDIS_REPLY_STATUS && strcmp(r->str, "PONG") == 0;
	if (r != NULL)
		freeReplyObject(r);
	return ok;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Serialises start/stop of one directory across processes; -1 on failure. */
static int lock_dir(const char *dir)
{
	char *path = join(dir, "server.lock");
	int fd = path ? open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600) : -1;
	free(path);
	if (fd >= 0 && flock(fd, LOCK_EX) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void unlock_dir(int fd)
{
	if (fd >= 0)
		close(fd); /* releases the flock */
}

/* redis.conf string argument: double-quoted with \ and " escaped. */
static void conf_str(FILE *f, const char *key, const char *value)
{
	fprintf(f, "%s \"", key);
	for (; *value; value++) {
		if (*value == '"' || *value == '\\')
			fputc('\\', f);
		fputc(*value, f);
	}
	fputs("\"\n", f);
}

static int write_conf(const char *dir, const char *conf, const char *sock)
{
	char *pidfile = join(dir, "redis.pid"), *logfile = join(dir, "redis.log");
	int fd = (pidfile && logfile) ? open(conf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	int rc = f ? 0 : -1;
	if (f == NULL && fd >= 0)
		close(fd);
	if (f != NULL) {
		/* No TCP at all: only processes that can reach the directory connect. */
		fputs("port 0\nunixsocketperm 700\ndaemonize yes\nappendonly yes\n"
		      "appendfsync everysec\nsave \"\"\n", f);
		conf_str(f, "unixsocket", sock);
		conf_str(f, "dir", dir);
		conf_str(f, "pidfile", pidfile);
		conf_str(f, "logfile", logfile);
		rc = fclose(f) == 0 ? 0 : -1;
	}
	free(pidfile);
	free(logfile);
	return rc;
}

/* Runs redis-server on conf; it daemonises, so the child exits at once. */
static int spawn(const char *conf)
{
	const char *prog = getenv("QLESS_REDIS_SERVER");
	int status;
	pid_t pid;
	if (prog == NULL || *prog == '\0')
		prog = "redis-server";
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		struct rlimit rl;
		long fd, max = 1024;
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		/* What the server creates (append-only files, log, pid) is private. */
		umask(077);
		/* The daemon must not keep the caller's sockets and files open. */
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 65536)
			max = (long)rl.rlim_cur;
		for (fd = 3; fd < max; fd++)
			close((int)fd);
		execlp(prog, prog, conf, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static char *make_url(const char *sock)
{
	size_t n = strlen(sock) + sizeof "unix://";
	char *url = malloc(n);
	if (url != NULL)
		snprintf(url, n, "unix://%s", sock);
	return url;
}

/* Starts the server of the resolved directory d; lock held by the caller. */
static int start_locked(const char *F, const char *d, const char *sock)
{
	char *conf = join(d, "redis.conf");
	int rc = QLESS_OK;
	if (conf == NULL)
		return qless__err_nomem(F);
	if (write_conf(d, conf, sock) != 0)
		rc = qless__err(QLESS_EIO, "%s: cannot write %s: %s", F, conf, strerror(errno));
	else if (spawn(conf) != 0)
		rc = qless__err(QLESS_EIO, "%s: redis-server did not start (is it installed? see %s/redis.log)", F, d);
	else {
		int waited;
		for (waited = 0; waited < START_WAIT_MS && !answers(sock); waited += 20)
			sleep_ms(20);
		if (waited >= START_WAIT_MS)
			rc = qless__err(QLESS_EIO, "%s: redis-server does not answer on %s (see %s/redis.log)", F, sock, d);
	}
	free(conf);
	return rc;
}

int qless_server_start(char **out_url, const char *dir)
{
	static const char F[] = "qless_server_start";
	char *d = NULL, *sock = NULL;
	int rc, lock = -1;

	if (out_url != NULL)
		*out_url = NULL;
	if ((rc = resolve(F, dir, &d)) != QLESS_OK)
		return rc;
	if ((sock = join(d, "redis.sock")) == NULL) {
		rc = qless__err_nomem(F);
	} else if (strlen(sock) > SOCKET_PATH_MAX) {
		rc = qless__err(QLESS_EINVAL, "%s: %s is too long for a unix socket path", F, sock);
	} else if (mkdirs(d) != 0) {
		rc = qless__err(QLESS_EIO, "%s: cannot create %s: %s", F, d, strerror(errno));
	} else if ((rc = private_dir(F, d)) != QLESS_OK) {
		/* said */
	} else if ((lock = lock_dir(d)) < 0) {
		rc = qless__err(QLESS_EIO, "%s: cannot lock %s: %s", F, d, strerror(errno));
	} else if (!(alive(read_pid(d)) && answers(sock))) {
		rc = start_locked(F, d, sock);
	}
	unlock_dir(lock);
	if (rc == QLESS_OK && out_url != NULL && (*out_url = make_url(sock)) == NULL)
		rc = qless__err_nomem(F);
	free(sock);
	free(d);
	return rc;
}

int qless_server_stop(const char *dir)
{
	static const char F[] = "qless_server_stop";
	char *d = NULL, *sock = NULL, *pidfile = NULL;
	int rc, lock = -1, waited;
	pid_t pid;

	if ((rc = resolve(F, dir, &d)) != QLESS_OK)
		return rc;
	sock = join(d, "redis.sock");
	pidfile = join(d, "redis.pid");
	if (sock == NULL || pidfile == NULL) {
		rc = qless__err_nomem(F);
		goto done;
	}
	if (access(d, F_OK) != 0)
		goto done; /* never started */
	if ((lock = lock_dir(d)) < 0) {
		rc = qless__err(QLESS_EIO, "%s: cannot lock %s: %s", F, d, strerror(errno));
		goto done;
	}
	pid = read_pid(d);
	if (!alive(pid))
		goto done;
	{
		/* SHUTDOWN flushes the append-only file before the server exits. */
		redisReply *r = unix_command(sock, "SHUTDOWN", 2000);
		if (r != NULL)
			freeReplyObject(r);
	}
	for (waited = 0; waited < STOP_WAIT_MS && alive(pid); waited += 20) {
		if (waited == STOP_WAIT_MS / 2)
			kill(pid, SIGTERM); /* SHUTDOWN was not heard: ask the usual way */
		sleep_ms(20);
	}
	if (alive(pid))
		rc = qless__err(QLESS_EIO, "%s: redis-server (pid %ld) did not exit", F, (long)pid);
done:
	if (rc == QLESS_OK && pidfile != NULL)
		unlink(pidfile);
	unlock_dir(lock);
	free(pidfile);
	free(sock);
	free(d);
	return rc;
}

int qless_server_status(int *out_running, int64_t *out_pid, char **out_url, const char *dir)
{
	static const char F[] = "qless_server_status";
	char *d = NULL, *sock = NULL;
	int rc, running;
	pid_t pid;

	if (out_running != NULL)
		*out_running = 0;
	if (out_pid != NULL)
		*out_pid = 0;
	if (out_url != NULL)
		*out_url = NULL;
	if ((rc = resolve(F, dir, &d)) != QLESS_OK)
		return rc;
	if ((sock = join(d, "redis.sock")) == NULL) {
		free(d);
		return qless__err_nomem(F);
	}
	pid = read_pid(d);
	running = alive(pid) && answers(sock);
	if (out_running != NULL)
		*out_running = running;
	if (out_pid != NULL)
		*out_pid = running ? (int64_t)pid : 0;
	if (out_url != NULL && (*out_url = make_url(sock)) == NULL)
		rc = qless__err_nomem(F);
	free(sock);
	free(d);
	return rc;
}
