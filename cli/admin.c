/*
 * Administration: workers and configuration.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- workers ---- */

static const char workers_usage[] =
	"usage: qless workers          workers seen recently, with their job counts\n"
	"       qless workers NAME     the jobs NAME holds, and those whose lock expired\n";

int cmd_workers(cli *c, int argc, char **argv)
{
	char *pos[1];
	int status, n = cli_parse(c, argc, argv, NULL, workers_usage, pos, 1, &status);
	if (n < 0)
		return status;
	if ((status = cli_connect(c)) != 0)
		return status;
	if (n == 0) {
		qless_strlist *list = NULL;
		if (qless_client_workers(&list, c->client) != QLESS_OK)
			return cli_lib_error(c);
		json_t *all = json_array();
		static const char *const headers[] = { "WORKER", "JOBS", "STALLED", NULL };
		table *t = table_new(headers);
		for (size_t i = 0; status == 0 && i < qless_strlist_size(list); i++) {
			const char *name = qless_strlist_get(list, i);
			qless_strlist *stalled = NULL;
			if (qless_client_worker_jobs(NULL, &stalled, c->client, name) != QLESS_OK) {
				status = cli_lib_error(c);
				break;
			}
			char jobs[24], st[24];
			snprintf(jobs, sizeof jobs, "%lld", (long long)qless_strlist_number(list, i));
			snprintf(st, sizeof st, "%zu", qless_strlist_size(stalled));
			table_row(t, name, jobs, st);
			json_array_append_new(all, json_pack("{s:s,s:I,s:I}", "name", name, "jobs",
			                                     (json_int_t)qless_strlist_number(list, i), "stalled",
			                                     (json_int_t)qless_strlist_size(stalled)));
			qless_strlist_free(stalled);
		}
		if (status == 0 && c->json)
			json_print(json_incref(all));
		else if (status == 0)
			table_print(t);
		else
			table_free(t);
		json_decref(all);
		qless_strlist_free(list);
		return status;
	}
	qless_strlist *jobs = NULL, *stalled = NULL;
	if (qless_client_worker_jobs(&jobs, &stalled, c->client, pos[0]) != QLESS_OK)
		return cli_lib_error(c);
	if (c->json) {
		json_print(json_pack("{s:s,s:o,s:o}", "name", pos[0], "jobs", json_strlist(jobs), "stalled",
		                     json_strlist(stalled)));
	} else {
		static const char *const headers[] = { "JID", "LOCK", NULL };
		table *t = table_new(headers);
		for (size_t i = 0; i < qless_strlist_size(jobs); i++)
			table_row(t, qless_strlist_get(jobs, i), "held");
		for (size_t i = 0; i < qless_strlist_size(stalled); i++)
			table_row(t, qless_strlist_get(stalled, i), "expired");
		table_print(t);
	}
	qless_strlist_free(jobs);
	qless_strlist_free(stalled);
	return 0;
}

/* ---- config ---- */

static int strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char config_usage[] =
	"usage: qless config                  all options (defaults overlaid by stored values)\n"
	"       qless config get KEY          one option's value (exit 1 if it has none)\n"
	"       qless config set KEY VALUE    store a value\n"
	"       qless config unset KEY        back to the default\n"
	"Options include heartbeat, grace-period, jobs-history, jobs-history-count,\n"
	"max-job-history, max-worker-age, stats-history, histogram-history, and\n"
	"<queue>-heartbeat, <queue>-max-concurrency.\n";

int cmd_config(cli *c, int argc, char **argv)
{
	char *pos[3];
	int status, n = cli_parse(c, argc, argv, NULL, config_usage, pos, 3, &status);
	if (n < 0)
		return status;
	const char *sub = n > 0 ? pos[0] : NULL;
	if (sub == NULL) {
		;
	} else if (strcmp(sub, "get") == 0 || strcmp(sub, "unset") == 0) {
		c->cmd = sub[0] == 'g' ? "config get" : "config unset";
		if (n != 2)
			return cli_usage_error(c, "needs one KEY");
	} else if (strcmp(sub, "set") == 0) {
		c->cmd = "config set";
		if (n != 3)
			return cli_usage_error(c, "needs KEY and VALUE");
	} else {
		return cli_usage_error(c, "unknown action '%s' (get, set or unset)", sub);
	}
	if ((status = cli_connect(c)) != 0)
		return status;
	char *text = NULL;
	if (sub == NULL) {
		if (qless_client_config_all(&text, c->client) != QLESS_OK)
			return cli_lib_error(c);
		json_t *all = json_parse(text);
		qless_free(text);
		if (c->json) {
			json_print(all);
			return 0;
		}
		/* sorted by key */
		size_t nkeys = json_object_size(all), k = 0;
		const char **keys = calloc(nkeys + 1, sizeof *keys);
		if (keys == NULL)
			abort();
		const char *key;
		json_t *value;
		json_object_foreach(all, key, value)
			keys[k++] = key;
		qsort(keys, nkeys, sizeof *keys, strcmp_ptr);
		static const char *const headers[] = { "KEY", "VALUE", NULL };
		table *t = table_new(headers);
		for (k = 0; k < nkeys; k++) {
			value = json_object_get(all, keys[k]);
			char *v = json_is_string(value) ? strdup(json_string_value(value))
			                                : json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
			table_row(t, keys[k], v);
			free(v);
		}
		table_print(t);
		free(keys);
		json_decref(all);
		return 0;
	}
	if (sub[0] == 'g') {
		if (qless_client_config_get(&text, c->client, pos[1]) != QLESS_OK)
			return cli_lib_error(c);
		if (text == NULL)
			return cli_error(c, "%s is not set and has no default", pos[1]);
		if (c->json)
			json_print(json_pack("{s:s}", pos[1], text));
		else
			printf("%s\n", text);
		qless_free(text);
		return 0;
	}
	int rc = sub[0] == 's' ? qless_client_config_set(c->client, pos[1], pos[2])
	                       : qless_client_config_unset(c->client, pos[1]);
	if (rc != QLESS_OK)
		return cli_lib_error(c);
	if (c->json)
		json_print(json_pack("{s:b}", "ok", 1));
	return 0;
}
