/*
 * qless schedule listen: a listener pool (qless_schedule_listen) whose job
 * code is a shell command; SIGTERM and SIGINT stop it gracefully.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"

const char schedule_listen_usage[] =
	"       qless schedule listen QUEUE --exec CMD [--pool N] [--max-jobs N]\n"
	"           run each job of QUEUE with /bin/sh -c CMD on N threads (default 1):\n"
	"           the job's JSON on its stdin, QLESS_JID, QLESS_KLASS, QLESS_QUEUE set;\n"
	"           exit 0 completes the job, any other status N fails it in group\n"
	"           exit-N (a signal S: exit-(128+S)) with the last 4 KiB of its stderr.\n"
	"           Stops after --max-jobs jobs in total (0: never), or on SIGTERM or\n"
	"           SIGINT once the running commands have finished.\n";

static qless_schedule *volatile listening;

static void on_stop(int sig)
{
	(void)sig;
	qless_schedule_stop(listening);
}

/* Fails the job itself, for a group and message of its own; should that
 * fail (Redis away, lock lost), the non-zero result lets the engine settle
 * the job by its own rules. */
static int fail_job(qless_job *job, const char *group, const char *message, int rc)
{
	return qless_job_fail(job, group, message) == QLESS_OK ? 0 : rc;
}

static int perform(qless_job *job, void *userdata)
{
	const char *cmd = userdata;
	const char *jid = qless_job_jid(job), *klass = qless_job_klass(job), *queue = qless_job_queue(job);
	size_t size = strlen(jid) + strlen(klass) + strlen(queue) + 48;
	char *vars = malloc(size), *env[4], group[32], *message;
	const char *json = qless_job_json(job);
	char *input = malloc(strlen(json) + 2);
	shell_tail *tail = malloc(sizeof *tail);
	int status = 0, err, code;

	message = malloc(SHELL_TAIL_SIZE + 1);
	if (vars == NULL || input == NULL || tail == NULL || message == NULL) {
		free(vars);
		free(input);
		free(tail);
		free(message);
		return fail_job(job, "qless-exec", "out of memory", 1);
	}
	env[0] = vars;
	env[1] = env[0] + sprintf(env[0], "QLESS_JID=%s", jid) + 1;
	env[2] = env[1] + sprintf(env[1], "QLESS_KLASS=%s", klass) + 1;
	sprintf(env[2], "QLESS_QUEUE=%s", queue);
	env[3] = NULL;
	sprintf(input, "%s\n", json);
	err = shell_run(cmd, input, env, &status, tail);
	if (err != 0) {
		snprintf(message, SHELL_TAIL_SIZE + 1, "cannot run /bin/sh: %s", strerror(err));
		code = fail_job(job, "qless-exec", message, 1);
	} else {
		code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		if (code != 0) {
			snprintf(group, sizeof group, "exit-%d", code);
			shell_tail_text(tail, message);
			code = fail_job(job, group, message, code);
		}
	}
	free(vars);
	free(input);
	free(tail);
	free(message);
	return code;
}

int schedule_listen(cli *c, int argc, char **argv)
{
	const char *exec = NULL, *pool = NULL, *max_jobs = NULL;
	const cli_opt opts[] = {
		{ "exec", OPT_STRING, &exec, NULL },
		{ "pool", OPT_STRING, &pool, NULL },
		{ "max-jobs", OPT_STRING, &max_jobs, NULL },
		{ 0 },
	};
	char *queue = NULL;
	int status;
	if (!schedule_one_queue(c, argc, argv, opts, schedule_listen_usage, &queue, &status))
		return status;
	if (exec == NULL || exec[0] == '\0')
		return cli_usage_error(c, exec ? "--exec is empty" : "needs --exec CMD");
	qless_listen_options lo = QLESS_LISTEN_OPTIONS_INIT;
	int64_t v;
	if (pool) {
		if (arg_int(c, "--pool", pool, 1, 128, &v))
			return EXIT_USAGE;
		lo.threads = (int)v;
	}
	if (max_jobs && arg_int(c, "--max-jobs", max_jobs, 0, INT64_MAX, &lo.max_jobs))
		return EXIT_USAGE;
	if ((status = cli_connect(c)) != 0)
		return status;
	qless_schedule *s = NULL;
	if (qless_schedule_new(&s, c->client, queue) != QLESS_OK)
		return cli_lib_error(c);

	struct sigaction sa, old_term, old_int, old_pipe;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	listening = s;
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGINT, &sa, &old_int);
	/* A command that exits without reading its stdin must not kill us. */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old_pipe);
	if (qless_schedule_listen(s, perform, (void *)exec, &lo) != QLESS_OK)
		status = cli_lib_error(c);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	listening = NULL;
	qless_schedule_free(s);
	return status;
}
