/*
 * The embedded server (server.h): state directory resolution, start, status,
 * stop, persistence across a restart, the client's default URL, concurrent
 * starts and error paths. Every server here runs in a temporary directory
 * and is stopped by the test.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "helper.h"

/* Saves and restores the environment variables these tests change. */
static const char *const VARS[] = { "QLESS_HOME", "XDG_STATE_HOME", "HOME", "QLESS_URL", "QLESS_REDIS_SERVER" };
#define NVARS (sizeof VARS / sizeof VARS[0])
static char *saved[NVARS];

static void env_save(void)
{
	for (size_t i = 0; i < NVARS; i++) {
		const char *v = getenv(VARS[i]);
		saved[i] = v ? strdup(v) : NULL;
	}
}

static void env_restore(void)
{
	for (size_t i = 0; i < NVARS; i++) {
		if (saved[i])
			setenv(VARS[i], saved[i], 1);
		else
			unsetenv(VARS[i]);
		free(saved[i]);
		saved[i] = NULL;
	}
}

static char *tmpdir(void)
{
	char tmpl[] = "/tmp/qless-server-test.XXXXXX";
	return mkdtemp(tmpl) ? strdup(tmpl) : NULL;
}

static void rmtree(const char *dir)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static int running(const char *dir, int64_t *pid)
{
	int up = -1;
	CU_ASSERT_EQUAL(qless_server_status(&up, pid, NULL, dir), QLESS_OK);
	return up;
}

static void test_dir_resolution(void)
{
	char *d = NULL;
	env_save();
	setenv("QLESS_HOME", "/srv/q", 1);
	setenv("XDG_STATE_HOME", "/x/state", 1);
	setenv("HOME", "/home/u", 1);
	TH_RC(qless_server_dir(&d), QLESS_OK);
	CU_ASSERT_STRING_EQUAL(d, "/srv/q");
	qless_free(d);
	unsetenv("QLESS_HOME");
	TH_RC(qless_server_dir(&d), QLESS_OK);
	CU_ASSERT_STRING_EQUAL(d, "/x/state/qless");
	qless_free(d);
	unsetenv("XDG_STATE_HOME");
	TH_RC(qless_server_dir(&d), QLESS_OK);
	CU_ASSERT_STRING_EQUAL(d, "/home/u/.local/state/qless");
	qless_free(d);
	unsetenv("HOME");
	TH_RC(qless_server_dir(&d), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(d);
	TH_RC(qless_server_dir(NULL), QLESS_EINVAL);
	env_restore();
}

static void test_start_status_stop_restart(void)
{
	char *dir = tmpdir(), *url = NULL, *url2 = NULL, *jid = NULL;
	int64_t pid = -1, pid2 = -1;
	qless_client *c = NULL;
	qless_queue *q = NULL;
	qless_job *job = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);

	CU_ASSERT_EQUAL(running(dir, &pid), 0);
	CU_ASSERT_EQUAL(pid, 0);
	TH_RC(qless_server_status(NULL, NULL, &url, dir), QLESS_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(url, "/redis.sock"));
	CU_ASSERT_EQUAL(strncmp(url, "unix://", 7), 0);
	qless_free(url);

	TH_RC(qless_server_start(&url, dir), QLESS_OK);
	CU_ASSERT_EQUAL(running(dir, &pid), 1);
	CU_ASSERT(pid > 0);
	/* Starting again finds the running server: same pid. */
	TH_RC(qless_server_start(&url2, dir), QLESS_OK);
	CU_ASSERT_STRING_EQUAL(url, url2);
	CU_ASSERT_EQUAL(running(dir, &pid2), 1);
	CU_ASSERT_EQUAL(pid2, pid);

	TH_RC(qless_client_new(&c, url, NULL), QLESS_OK);
	TH_RC(qless_queue_new(&q, c, "survivors"), QLESS_OK);
	TH_RC(qless_queue_put(&jid, q, "Keep", "{\"n\": 1}", NULL), QLESS_OK);
	qless_queue_free(q);
	qless_client_free(c);

	TH_RC(qless_server_stop(dir), QLESS_OK);
	CU_ASSERT_EQUAL(running(dir, &pid2), 0);
	CU_ASSERT_EQUAL(kill((pid_t)pid, 0) != 0 || errno != ESRCH, 1);
	TH_RC(qless_server_stop(dir), QLESS_OK); /* not running: fine */

	/* Restarted, the job is still there (append-only file). */
	TH_RC(qless_server_start(NULL, dir), QLESS_OK);
	TH_RC(qless_client_new(&c, url, NULL), QLESS_OK);
	TH_RC(qless_client_get_job(&job, c, jid), QLESS_OK);
	if (job) {
		CU_ASSERT_STRING_EQUAL(qless_job_state(job), "waiting");
		CU_ASSERT_STRING_EQUAL(qless_job_data(job), "{\"n\": 1}");
	}
	qless_job_free(job);
	qless_client_free(c);
	TH_RC(qless_server_stop(dir), QLESS_OK);

	qless_free(jid);
	qless_free(url);
	qless_free(url2);
	rmtree(dir);
	free(dir);
}

static void test_client_default_url(void)
{
	char *dir = tmpdir(), *jid = NULL;
	qless_client *c = NULL;
	qless_queue *q = NULL;
	qless_job *job = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	env_save();
	setenv("QLESS_HOME", dir, 1);
	unsetenv("QLESS_URL");

	CU_ASSERT_EQUAL(running(NULL, NULL), 0);
	TH_RC(qless_client_new(&c, NULL, NULL), QLESS_OK); /* starts it */
	CU_ASSERT_EQUAL(running(NULL, NULL), 1);
	TH_RC(qless_queue_new(&q, c, "embedded"), QLESS_OK);
	TH_RC(qless_queue_put(&jid, q, "K", NULL, NULL), QLESS_OK);
	TH_RC(qless_client_get_job(&job, c, jid), QLESS_OK);
	if (job)
		CU_ASSERT_STRING_EQUAL(qless_job_queue(job), "embedded");
	/* The job is not on the fixture server: it went to the embedded one. */
	CU_ASSERT_EQUAL(th_int("EXISTS ql:j:%s", jid), 0);
	qless_job_free(job);
	qless_queue_free(q);
	qless_client_free(c);
	qless_free(jid);

	/* A URL given (or QLESS_URL) starts nothing. */
	TH_RC(qless_server_stop(NULL), QLESS_OK);
	setenv("QLESS_URL", th_url(), 1);
	TH_RC(qless_client_new(&c, NULL, NULL), QLESS_OK);
	CU_ASSERT_EQUAL(running(NULL, NULL), 0);
	qless_client_free(c);

	env_restore();
	rmtree(dir);
	free(dir);
}

static void *start_thread(void *dir)
{
	return (void *)(intptr_t)qless_server_start(NULL, dir);
}

static void test_concurrent_start(void)
{
	char *dir = tmpdir();
	int64_t pid = 0;
	pthread_t t[2];
	void *rc[2] = { (void *)1, (void *)1 };
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	/* Two starts race (each takes the directory lock on its own open file,
	 * as two processes would): both succeed and one server runs. */
	for (int i = 0; i < 2; i++)
		CU_ASSERT_EQUAL_FATAL(pthread_create(&t[i], NULL, start_thread, dir), 0);
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], &rc[i]);
		CU_ASSERT_EQUAL((intptr_t)rc[i], QLESS_OK);
	}
	CU_ASSERT_EQUAL(running(dir, &pid), 1);
	CU_ASSERT(pid > 0);
	TH_RC(qless_server_stop(dir), QLESS_OK);
	CU_ASSERT_EQUAL(running(dir, NULL), 0);
	rmtree(dir);
	free(dir);
}

static void test_errors(void)
{
	char *url = (char *)"untouched";
	char *dir = tmpdir();
	char longdir[200];
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	env_save();

	TH_RC(qless_server_start(&url, ""), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(url);
	TH_RC(qless_server_stop(""), QLESS_EINVAL);
	TH_RC(qless_server_status(NULL, NULL, NULL, ""), QLESS_EINVAL);

	memset(longdir, 'd', sizeof longdir - 1);
	longdir[0] = '/';
	longdir[sizeof longdir - 1] = '\0';
	TH_RC(qless_server_start(NULL, longdir), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "too long"));

	setenv("QLESS_REDIS_SERVER", "/nonexistent/redis-server", 1);
	TH_RC(qless_server_start(NULL, dir), QLESS_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "did not start"));
	CU_ASSERT_EQUAL(running(dir, NULL), 0);

	/* With no state directory at all, a client without a URL cannot start one. */
	unsetenv("QLESS_URL");
	unsetenv("QLESS_HOME");
	unsetenv("XDG_STATE_HOME");
	unsetenv("HOME");
	qless_client *c = (qless_client *)&url;
	TH_RC(qless_client_new(&c, NULL, NULL), QLESS_EINVAL);
	CU_ASSERT_PTR_NULL(c);

	env_restore();
	rmtree(dir);
	free(dir);
}

/* Every regular file (and directory) under dir, one level into
 * subdirectories, has no group/other bits; returns how many were seen. */
static int count_private(const char *dir, int depth, int *public_found)
{
	char cmd[600], line[512];
	int n = 0;
	snprintf(cmd, sizeof cmd, "find '%s' -mindepth 1 -maxdepth %d \\( -type f -o -type d \\) -printf '%%m %%p\\n'",
	         dir, depth + 1);
	FILE *f = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fgets(line, sizeof line, f) != NULL) {
		unsigned mode = 0;
		n++;
		if (sscanf(line, "%o", &mode) == 1 && (mode & 077) != 0) {
			(*public_found)++;
			fprintf(stderr, "\n  not private: %s", line);
		}
	}
	pclose(f);
	return n;
}

/* A QLESS_HOME that exists with 0755 and files of 0644 (an older version,
 * a loose umask) is made private on start (0700, 0600), and so is all the
 * server then writes (append-only files, log, config); a shared directory
 * (sticky, like /tmp) is refused and left as it was. */
static void test_private_files(void)
{
	char *dir = tmpdir(), path[600];
	struct stat st;
	int public_found = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	mode_t old = umask(022);
	CU_ASSERT_EQUAL(chmod(dir, 0755), 0);
	snprintf(path, sizeof path, "%s/appendonlydir", dir);
	CU_ASSERT_EQUAL(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/redis.log", dir);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	CU_ASSERT_EQUAL(chmod(path, 0644), 0);
	TH_OK(qless_server_start(NULL, dir));
	CU_ASSERT_EQUAL(stat(dir, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0700);
	CU_ASSERT(count_private(dir, 1, &public_found) >= 4); /* conf, log, pid, appendonlydir + its files */
	CU_ASSERT_EQUAL(public_found, 0);
	TH_OK(qless_server_stop(dir));
	umask(old);
	rmtree(dir);
	free(dir);

	char *shared = tmpdir();
	CU_ASSERT_PTR_NOT_NULL_FATAL(shared);
	CU_ASSERT_EQUAL(chmod(shared, 01777), 0);
	TH_RC(qless_server_start(NULL, shared), QLESS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(qless_error_last_message(), "shared"));
	CU_ASSERT_EQUAL(stat(shared, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 01777); /* refused, not changed */
	rmtree(shared);
	free(shared);
}

CU_TestInfo server_tests[] = {
	{ "private_files", test_private_files },
	{ "dir_resolution", test_dir_resolution },
	{ "start_status_stop_restart", test_start_status_stop_restart },
	{ "client_default_url", test_client_default_url },
	{ "concurrent_start", test_concurrent_start },
	{ "errors", test_errors },
	CU_TEST_INFO_NULL,
};
