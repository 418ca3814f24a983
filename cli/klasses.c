/*
 * qless klass: the worker registry of a queue, the port configuration a
 * job class's new tree jobs get (register, list, unregister).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const char register_usage[] =
	"       qless klass register QUEUE KLASS CONFIG\n"
	"           register KLASS's configuration, a JSON object such as\n"
	"           {\"inports\":{\"in\":{}},\"outports\":{\"out\":{}}}: its new tree jobs in\n"
	"           QUEUE get these ports; prints registered (or replaced) KLASS\n";
static const char list_usage[] =
	"       qless klass list QUEUE [KLASS]\n"
	"           the registered classes: KLASS CONFIG a line, or KLASS's configuration\n";
static const char unregister_usage[] =
	"       qless klass unregister QUEUE KLASS...\n"
	"           forget the classes (existing jobs keep their ports); prints\n"
	"           unregistered KLASS for each that was registered\n";

/* A handle on QUEUE (pos[0]), *q owned; connects first. */
static int on_queue(cli *c, char **pos, qless_queue **q)
{
	int status = cli_connect(c);
	if (status == 0 && qless_queue_new(q, c->client, pos[0]) != QLESS_OK)
		status = cli_lib_error(c);
	return status;
}

static int klass_register(cli *c, int argc, char **argv)
{
	char **pos;
	qless_queue *q = NULL;
	int status;
	if (cli_words(c, argc, argv, NULL, register_usage, "QUEUE KLASS CONFIG", 3, 3, &pos, &status) < 0)
		return status;
	int added = 0;
	if ((status = arg_json_object(c, "CONFIG", pos[2])) == 0 && (status = on_queue(c, pos, &q)) == 0 &&
	    qless_queue_register_klass(&added, q, pos[1], pos[2]) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0 && c->json)
		json_print(json_pack("{s:s,s:s,s:b}", "queue", pos[0], "klass", pos[1], "new", added));
	else if (status == 0)
		printf("%s %s\n", added ? "registered" : "replaced", pos[1]);
	qless_queue_free(q);
	free(pos);
	return status;
}

static int klass_list(cli *c, int argc, char **argv)
{
	char **pos, *text = NULL;
	qless_queue *q = NULL;
	int status, n = cli_words(c, argc, argv, NULL, list_usage, "QUEUE [KLASS]", 1, 2, &pos, &status);
	if (n < 0)
		return status;
	const char *klass = n > 1 ? pos[1] : NULL;
	if ((status = on_queue(c, pos, &q)) == 0 && qless_queue_klass_config(&text, q, klass) != QLESS_OK)
		status = cli_lib_error(c);
	if (status == 0 && text == NULL)
		status = cli_error(c, "%s is not registered in %s", klass, pos[0]);
	if (status == 0 && (klass != NULL || c->json))
		puts(text);
	else if (status == 0)
		print_object_table(text, "KLASS", "CONFIG");
	qless_free(text);
	qless_queue_free(q);
	free(pos);
	return status;
}

static int klass_unregister(cli *c, int argc, char **argv)
{
	char **pos;
	qless_queue *q = NULL;
	int status, n = cli_words(c, argc, argv, NULL, unregister_usage, "QUEUE KLASS...", 2, -1, &pos, &status);
	if (n < 0)
		return status;
	/* Which classes were registered, in the order given. */
	json_t *removed = json_array();
	status = on_queue(c, pos, &q);
	for (int i = 1; status == 0 && i < n; i++) {
		int was = 0;
		if (qless_queue_unregister_klass(&was, q, pos[i]) != QLESS_OK)
			status = cli_lib_error(c);
		else if (was)
			json_array_append_new(removed, json_string(pos[i]));
	}
	size_t k;
	json_t *klass;
	if (status == 0 && c->json)
		json_print(json_pack("{s:s,s:O}", "queue", pos[0], "unregistered", removed));
	else if (status == 0)
		json_array_foreach(removed, k, klass) printf("unregistered %s\n", json_string_value(klass));
	json_decref(removed);
	qless_queue_free(q);
	free(pos);
	return status;
}

static const cli_sub subs[] = {
	{ "register", klass_register, "klass register", register_usage },
	{ "list", klass_list, "klass list", list_usage },
	{ "unregister", klass_unregister, "klass unregister", unregister_usage },
};

int cmd_klass(cli *c, int argc, char **argv)
{
	return cli_subcommand(c, argc, argv, subs, sizeof subs / sizeof subs[0], NULL);
}
