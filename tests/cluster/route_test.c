/*
 * cluster.route: the core's routing on the fixture cluster, below the
 * protocol: commands on keys of a namespace go to the node serving its slot;
 * a slot moved by hand is followed through ASK (during the migration) and
 * MOVED (after it, the map read again); a slot not served (CLUSTERDOWN) is
 * waited for, then given up with a clear error; bad cluster URLs are
 * refused with a message naming the problem. Usage: route_test DIR (the
 * fixture's state); route_test DIR down: only the CLUSTERDOWN case, which
 * takes a slot away, on a cluster of its own (ctest cluster.down).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/wait.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "qless/qless.h"
#include "client_state.h"
#include "cluster.h"

static int failures;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static char url[1024];

static qless_client *client(const char *u)
{
	qless_client *c = calloc(1, sizeof *c);
	qless_cluster_url cu;
	if (qless__cluster_url_parse(u, &cu) != QLESS_OK) {
		fprintf(stderr, "parse: %s\n", qless_error_last_message());
		exit(2);
	}
	c->connect_timeout_ms = 2000;
	c->command_timeout_ms = 5000;
	c->url.host = strdup(cu.hosts[0]);
	c->url.port = cu.ports[0];
	if (qless__cluster_new(&c->cluster, &cu, "{route}:ql:") != QLESS_OK)
		exit(2);
	qless__cluster_url_free(&cu);
	return c;
}

static void client_free(qless_client *c)
{
	qless__cluster_sync(c);
	c->conn = NULL;
	qless__cluster_free(c->cluster);
	free(c->url.host);
	free(c);
}

static redisReply *run(qless_client *c, const char *a0, const char *a1, const char *a2)
{
	const char *argv[3] = { a0, a1, a2 };
	return qless__cluster_command(c, a2 ? 3 : 2, argv, "route_test");
}

static char *get(qless_client *c, const char *key)
{
	redisReply *r = run(c, "GET", key, NULL);
	char *v = NULL;
	if (r == NULL) {
		fprintf(stderr, "GET %s: %s\n", key, qless_error_last_message());
		return NULL;
	}
	if (r->type == REDIS_REPLY_STRING)
		v = strdup(r->str);
	else if (r->type == REDIS_REPLY_ERROR)
		fprintf(stderr, "GET %s: %s\n", key, r->str);
	freeReplyObject(r);
	return v;
}

/* A raw command to host:port (the test's own hand on the cluster). */
static redisReply *raw(const char *host, int port, const char *fmt, ...)
{
	va_list ap;
	redisContext *ctx = redisConnect(host, port);
	redisReply *r;
	if (ctx == NULL || ctx->err) {
		fprintf(stderr, "cannot connect to %s:%d\n", host, port);
		exit(2);
	}
	va_start(ap, fmt);
	r = redisvCommand(ctx, fmt, ap);
	va_end(ap);
	redisFree(ctx);
	return r;
}

static void myid(const qless_node *n, char *out)
{
	redisReply *r = raw(n->host, n->port, "CLUSTER MYID");
	snprintf(out, 64, "%s", r && r->type == REDIS_REPLY_STRING ? r->str : "?");
	if (r)
		freeReplyObject(r);
}

static void ok_reply(redisReply *r, const char *what)
{
	CHECK(r != NULL && r->type != REDIS_REPLY_ERROR, "%s: %s", what, r ? r->str : "no reply");
	if (r)
		freeReplyObject(r);
}

static void bad_urls(void)
{
	static const struct { const char *url, *says; } cases[] = {
		{ "redis+cluster://127.0.0.1:7000/?namespace=", "namespace is empty" },
		{ "redis+cluster://127.0.0.1:7000/3?namespace=a", "database 0" },
		{ "redis+cluster://127.0.0.1/?namespace=a", "host:port" },
		{ "redis+cluster://127.0.0.1:7000,/?namespace=a", "empty node" },
		{ "redis+cluster://127.0.0.1:7000/?namespace=a&wait_replicas=x", "wait_replicas" },
		{ "redis+cluster://127.0.0.1:7000/?namespace=a&wait_timeout_ms=0", "wait_timeout_ms" },
		{ "redis+cluster://127.0.0.1:7000/?namespace=a&color=red", "unknown query parameter" },
		{ "redis+cluster://u:s3cret@127.0.0.1:7000/?namespace=a&x=1", "unknown query parameter" },
	};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		qless_cluster_url u;
		int rc = qless__cluster_url_parse(cases[i].url, &u);
		const char *msg = qless_error_last_message();
		CHECK(rc == QLESS_EINVAL && strstr(msg, cases[i].says) != NULL, "%s: rc %d, message %s", cases[i].url, rc,
		      msg);
		CHECK(strstr(msg, "s3cret") == NULL, "the password shows in: %s", msg);
	}
	{
		/* No namespace in the URL nor the options: refused before connecting. */
		qless_client *c = NULL;
		int rc = qless_client_new(&c, "redis+cluster://127.0.0.1:1", NULL);
		CHECK(rc == QLESS_EINVAL && c == NULL && strstr(qless_error_last_message(), "needs a namespace") != NULL,
		      "a cluster client without a namespace: rc %d, %s", rc, qless_error_last_message());
		rc = qless_client_new(&c, "redis+cluster://127.0.0.1:1/?namespace=a%7Bb", NULL);
		CHECK(rc == QLESS_EINVAL && c == NULL, "a namespace with a brace is refused: rc %d, %s", rc,
		      qless_error_last_message());
	}
	{
		qless_cluster_url u;
		int rc = qless__cluster_url_parse(
			"redis+cluster://us%65r:p%40ss@h1:7000,h2:7001/?namespace=n%2F1&wait_replicas=1&wait_timeout_ms=250", &u);
		CHECK(rc == QLESS_OK && u.nseeds == 2 && strcmp(u.hosts[1], "h2") == 0 && u.ports[1] == 7001 &&
		      strcmp(u.user, "user") == 0 && strcmp(u.password, "p@ss") == 0 && strcmp(u.ns, "n/1") == 0 &&
		      u.wait_replicas == 1 && u.wait_timeout_ms == 250, "a full URL parses (rc %d)", rc);
		if (rc == QLESS_OK)
			qless__cluster_url_free(&u);
	}
}

/* Moves the namespace's slot of c to another primary by hand, checking
 * the client follows ASK midway and MOVED after. */
static void migrate(qless_client *c)
{
	qless_cluster *cl = c->cluster;
	int from = cl->owner[cl->slot], to = -1, i;
	char from_id[64], to_id[64], slot[16], *v;
	const qless_node *src, *dst;
	redisReply *r;

	for (i = 0; i < QLESS__SLOTS && to < 0; i++)
		if (cl->owner[i] >= 0 && cl->owner[i] != from)
			to = cl->owner[i];
	if (from < 0 || to < 0) {
		CHECK(0, "the map has no two primaries");
		return;
	}
	src = &cl->nodes[from];
	dst = &cl->nodes[to];
	myid(src, from_id);
	myid(dst, to_id);
	snprintf(slot, sizeof slot, "%u", cl->slot);
	ok_reply(run(c, "SET", "{route}:a", "1"), "SET a");
	ok_reply(run(c, "SET", "{route}:b", "2"), "SET b");

	ok_reply(raw(dst->host, dst->port, "CLUSTER SETSLOT %s IMPORTING %s", slot, from_id), "IMPORTING");
	ok_reply(raw(src->host, src->port, "CLUSTER SETSLOT %s MIGRATING %s", slot, to_id), "MIGRATING");
	ok_reply(raw(src->host, src->port, "MIGRATE %s %d %s 0 5000 KEYS {route}:a", dst->host, dst->port, ""), "MIGRATE a");
	/* a moved: the source answers ASK, the client asks the target. */
	v = get(c, "{route}:a");
	CHECK(v != NULL && strcmp(v, "1") == 0, "GET a during the migration: %s", v ? v : "(null)");
	free(v);
	CHECK(cl->owner[cl->slot] == from, "an ASK does not change the map");
	v = get(c, "{route}:b");
	CHECK(v != NULL && strcmp(v, "2") == 0, "GET b (not moved yet): %s", v ? v : "(null)");
	free(v);

	ok_reply(raw(src->host, src->port, "MIGRATE %s %d %s 0 5000 KEYS {route}:b", dst->host, dst->port, ""), "MIGRATE b");
	for (i = 0; i < (int)cl->nnodes; i++) {
		r = raw(cl->nodes[i].host, cl->nodes[i].port, "CLUSTER SETSLOT %s NODE %s", slot, to_id);
		if (r)
			freeReplyObject(r); /* a replica may refuse: it learns by gossip */
	}
	/* The source now answers MOVED: the client reads the map again. */
	v = get(c, "{route}:b");
	CHECK(v != NULL && strcmp(v, "2") == 0, "GET b after the migration: %s", v ? v : "(null)");
	free(v);
	CHECK(cl->owner[cl->slot] >= 0 && cl->nodes[cl->owner[cl->slot]].port == dst->port,
	      "the map names the new owner after MOVED");
	/* And back, so that the fixture's layout is as made. */
	ok_reply(raw(src->host, src->port, "CLUSTER SETSLOT %s IMPORTING %s", slot, to_id), "IMPORTING back");
	ok_reply(raw(dst->host, dst->port, "CLUSTER SETSLOT %s MIGRATING %s", slot, from_id), "MIGRATING back");
	ok_reply(raw(dst->host, dst->port, "MIGRATE %s %d %s 0 5000 KEYS {route}:a {route}:b", src->host, src->port, ""),
	         "MIGRATE back");
	for (i = 0; i < (int)cl->nnodes; i++) {
		r = raw(cl->nodes[i].host, cl->nodes[i].port, "CLUSTER SETSLOT %s NODE %s", slot, from_id);
		if (r)
			freeReplyObject(r);
	}
	v = get(c, "{route}:a");
	CHECK(v != NULL && strcmp(v, "1") == 0, "GET a after moving back: %s", v ? v : "(null)");
	free(v);
	ok_reply(run(c, "DEL", "{route}:a", NULL), "DEL a");
	ok_reply(run(c, "DEL", "{route}:b", NULL), "DEL b");
}

/* The slot's owner stops serving it (DELSLOTS: CLUSTERDOWN Hash slot not
 * served): a call waits for it to come back (here after 1 s), and gives up
 * with a clear error when it does not within 5 s. */
static void cluster_down(qless_client *c)
{
	qless_cluster *cl = c->cluster;
	const qless_node *owner;
	char slot[16], *v;
	pid_t pid;
	snprintf(slot, sizeof slot, "%u", cl->slot);
	ok_reply(run(c, "SET", "{route}:d", "down"), "SET d");
	if (cl->owner[cl->slot] < 0) {
		CHECK(0, "no owner known after a SET");
		return;
	}
	owner = &cl->nodes[cl->owner[cl->slot]];
	ok_reply(raw(owner->host, owner->port, "CLUSTER DELSLOTS %s", slot), "DELSLOTS");
	if ((pid = fork()) == 0) {
		sleep(1);
		redisReply *r = raw(owner->host, owner->port, "CLUSTER ADDSLOTS %s", slot);
		_exit(r != NULL && r->type != REDIS_REPLY_ERROR ? 0 : 1);
	}
	v = get(c, "{route}:d");
	CHECK(v != NULL && strcmp(v, "down") == 0, "GET while the slot is not served for 1 s: %s", v ? v : "(null)");
	free(v);
	{
		int status = 0;
		waitpid(pid, &status, 0);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "ADDSLOTS back");
	}
	ok_reply(raw(owner->host, owner->port, "CLUSTER DELSLOTS %s", slot), "DELSLOTS again");
	{
		redisReply *r = run(c, "GET", "{route}:d", NULL);
		const char *msg = qless_error_last_message();
		/* Which of the two a node says depends on whether it still counts
		 * the slot (CLUSTERDOWN) or its map lists no owner. */
		CHECK(r == NULL && qless_error_last_code() == QLESS_EIO &&
		      ((strstr(msg, "did not recover") != NULL && strstr(msg, "CLUSTERDOWN") != NULL) ||
		       strstr(msg, "no node of the cluster serves slot") != NULL),
		      "a slot not served for 5 s: %s", msg);
		if (r)
			freeReplyObject(r);
	}
	ok_reply(raw(owner->host, owner->port, "CLUSTER ADDSLOTS %s", slot), "ADDSLOTS back again");
	v = get(c, "{route}:d");
	CHECK(v != NULL && strcmp(v, "down") == 0, "GET once the slot is served again: %s", v ? v : "(null)");
	free(v);
	ok_reply(run(c, "DEL", "{route}:d", NULL), "DEL d");
}

/* wait_replicas through the public API: every primary of the fixture has
 * one replica, so 1 is met and 2 is not: a put then fails with QLESS_EIO
 * saying how many acknowledged, yet it ran (a get, which does not WAIT,
 * finds the job). The option wins over the URL; bad values are refused. */
static void wait_replicas(void)
{
	char u[1200];
	qless_client *c = NULL;
	qless_queue *q = NULL;
	qless_job *job = NULL;
	qless_client_options o;
	char *jid = NULL;
	int rc;

	snprintf(u, sizeof u, "%s/?namespace=waits-%d&wait_replicas=1&wait_timeout_ms=300", url, (int)getpid());
	rc = qless_client_new(&c, u, NULL);
	CHECK(rc == QLESS_OK, "client with wait_replicas=1: %s", qless_error_last_message());
	if (rc != QLESS_OK)
		return;
	rc = qless_queue_new(&q, c, "q");
	if (rc == QLESS_OK)
		rc = qless_queue_put(&jid, q, "Noop", "{}", NULL);
	CHECK(rc == QLESS_OK, "a put acknowledged by the one replica: %s", qless_error_last_message());
	qless_free(jid);
	jid = NULL;
	qless_queue_free(q);
	qless_client_free(c);

	qless_client_options_init(&o, QLESS_CLIENT_OPTIONS_VERSION);
	o.wait_replicas = 2; /* wins over the URL's 1 */
	rc = qless_client_new(&c, u, &o);
	CHECK(rc == QLESS_OK, "client with the option: %s", qless_error_last_message());
	if (rc != QLESS_OK)
		return;
	qless_queue_new(&q, c, "q");
	rc = qless_queue_put(&jid, q, "Noop", "{}", NULL);
	CHECK(rc == QLESS_EIO && strstr(qless_error_last_message(), "only 1 of the 2 replicas") != NULL,
	      "a put two replicas cannot acknowledge: rc %d, %s", rc, qless_error_last_message());
	{
		/* It ran: the queue holds both jobs (length reads: no WAIT). */
		const char *argv[1] = { "q" };
		char *out = NULL;
		rc = qless_client_call(&out, c, "length", argv, 1);
		CHECK(rc == QLESS_OK && out != NULL && strcmp(out, "2") == 0, "length after the put: rc %d, %s", rc,
		      out ? out : qless_error_last_message());
		qless_free(out);
	}
	qless_queue_free(q);
	qless_client_free(c);

	o.wait_replicas = -1;
	rc = qless_client_new(&c, u, &o);
	CHECK(rc == QLESS_EINVAL && strstr(qless_error_last_message(), "wait_replicas") != NULL,
	      "a negative wait_replicas: rc %d, %s", rc, qless_error_last_message());
	rc = qless_client_new(&c, "redis://127.0.0.1:1/?wait_replicas=x", NULL);
	CHECK(rc == QLESS_EINVAL && strstr(qless_error_last_message(), "wait_replicas") != NULL,
	      "redis:// wait_replicas=x: rc %d, %s", rc, qless_error_last_message());
	rc = qless_client_new(&c, "redis://127.0.0.1:1/?wait_timeout_ms=0", NULL);
	CHECK(rc == QLESS_EINVAL && strstr(qless_error_last_message(), "wait_timeout_ms") != NULL,
	      "redis:// wait_timeout_ms=0: rc %d, %s", rc, qless_error_last_message());
	(void)job;
}

/* Events on a cluster: a subscription (on the namespace's primary) sees
 * the namespace's log channel, e.g. the put of a job. */
static void events(void)
{
	char u[1200], *ch = NULL, *msg = NULL, *jid = NULL;
	const char *chs[1] = { "log" };
	qless_client *c = NULL;
	qless_queue *q = NULL;
	qless_events *ev = NULL;
	int rc, i;

	snprintf(u, sizeof u, "%s/?namespace=events-%d", url, (int)getpid());
	rc = qless_client_new(&c, u, NULL);
	if (rc == QLESS_OK)
		rc = qless_events_new(&ev, c, chs, 1);
	if (rc == QLESS_OK)
		rc = qless_queue_new(&q, c, "q");
	if (rc == QLESS_OK)
		rc = qless_queue_put(&jid, q, "Noop", "{}", NULL);
	CHECK(rc == QLESS_OK, "events: setting up: %s", qless_error_last_message());
	for (i = 0; rc == QLESS_OK && i < 10; i++) {
		rc = qless_events_next(&ch, &msg, ev, 3000);
		if (rc != QLESS_OK || ch == NULL || (strcmp(ch, "log") == 0 && strstr(msg, jid) != NULL))
			break;
		qless_free(ch);
		qless_free(msg);
		ch = msg = NULL;
	}
	CHECK(rc == QLESS_OK && ch != NULL && strcmp(ch, "log") == 0 && msg != NULL && strstr(msg, jid) != NULL,
	      "the put's event on log: rc %d, channel %s, message %s", rc, ch ? ch : "(none)", msg ? msg : "(none)");
	qless_free(ch);
	qless_free(msg);
	qless_free(jid);
	qless_events_free(ev);
	qless_queue_free(q);
	qless_client_free(c);
}

int main(int argc, char **argv)
{
	FILE *f;
	qless_client *c;
	char u[1200], *v;
	redisReply *r;

	if (argc < 2)
		return 2;
	snprintf(u, sizeof u, "%s/url", argv[1]);
	if ((f = fopen(u, "r")) == NULL || fgets(url, sizeof url, f) == NULL)
		return 2;
	fclose(f);
	url[strcspn(url, "\n")] = '\0';

	snprintf(u, sizeof u, "%s/?namespace=route", url);
	if (argc > 2 && strcmp(argv[2], "down") == 0) {
		/* On a cluster of its own (cluster.down): the others share theirs. */
		c = client(u);
		cluster_down(c);
		client_free(c);
		printf(failures ? "" : "ok\n");
		return failures ? 1 : 0;
	}
	bad_urls();
	c = client(u);
	ok_reply(run(c, "SET", "{route}:x", "hello"), "SET");
	v = get(c, "{route}:x");
	CHECK(v != NULL && strcmp(v, "hello") == 0, "GET after SET: %s", v ? v : "(null)");
	free(v);
	CHECK(c->cluster->owner[c->cluster->slot] >= 0, "the map is read");
	/* The key lives on the node the map names. */
	r = raw(c->cluster->nodes[c->cluster->owner[c->cluster->slot]].host,
	        c->cluster->nodes[c->cluster->owner[c->cluster->slot]].port, "GET {route}:x");
	CHECK(r != NULL && r->type == REDIS_REPLY_STRING && strcmp(r->str, "hello") == 0, "stored on the slot's owner");
	if (r)
		freeReplyObject(r);
	ok_reply(run(c, "DEL", "{route}:x", NULL), "DEL");
	migrate(c);
	client_free(c);
	wait_replicas();
	events();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	else
		printf("ok\n");
	return failures ? 1 : 0;
}
