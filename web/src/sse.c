/*
 * /api/events: server-sent events fed by qless's pub/sub. One subscription
 * (to ql:log) serves every connected page; it is made when the first page
 * connects and dropped when the last one leaves, so the dashboard costs the
 * queues nothing while no one is looking. Counts go out at most once a
 * second, and only after a job event.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "server.h"

#define RING 256

struct web_sse {
	char *url;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	int nclients;
	int stopping;
	int hub_running;
	pthread_t hub;
	uint64_t seq;          /* number of messages ever pushed */
	char *ring[RING];      /* message n is ring[n % RING] while n + RING > seq */
};

typedef struct reader {
	web_sse *sse;
	uint64_t next;         /* the next message this page gets */
	char *pending;
	size_t len, pos;
} reader;

static void push(web_sse *s, char *msg)
{
	pthread_mutex_lock(&s->lock);
	free(s->ring[s->seq % RING]);
	s->ring[s->seq % RING] = msg;
	s->seq++;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}

static char *frame(const char *name, json_t *data)
{
	char *text = json_dumps(data, JSON_COMPACT | JSON_ENCODE_ANY);
	json_decref(data);
	if (text == NULL)
		return NULL;
	size_t n = strlen(text) + strlen(name) + 32;
	char *out = malloc(n);
	if (out != NULL)
		snprintf(out, n, "event: %s\ndata: %s\n\n", name, text);
	free(text);
	return out;
}

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void push_counts(web_sse *s, qless_client *client)
{
	char *text = NULL;
	if (qless_client_queues_json(&text, client) != QLESS_OK)
		return;
	json_t *v = json_loads(text, 0, NULL);
	qless_free(text);
	if (!json_is_array(v)) {
		json_decref(v);   /* an empty Lua table comes back as {} */
		v = json_array();
	}
	char *m = frame("counts", v);
	if (m != NULL)
		push(s, m);
}

static void *hub_main(void *arg)
{
	web_sse *s = arg;
	qless_client *client = NULL;
	qless_events *ev = NULL;
	const char *channels[] = { "log" };
	if (qless_client_new(&client, s->url, NULL) != QLESS_OK ||
	    qless_events_new(&ev, client, channels, 1) != QLESS_OK) {
		qless_client_free(client);
		pthread_mutex_lock(&s->lock);
		s->hub_running = 0;
		pthread_mutex_unlock(&s->lock);
		return NULL;
	}
	int dirty = 0;
	double last_counts = 0;
	for (;;) {
		pthread_mutex_lock(&s->lock);
		int go = s->nclients > 0 && !s->stopping;
		if (!go)
			s->hub_running = 0;
		pthread_mutex_unlock(&s->lock);
		if (!go)
			break;
		char *channel = NULL, *message = NULL;
		if (qless_events_next(&channel, &message, ev, 250) != QLESS_OK) {
			struct timespec pause = { 0, 250 * 1000000 };
			nanosleep(&pause, NULL);   /* the connection is being replaced */
		}
		if (message != NULL) {
			json_t *m = json_loads(message, 0, NULL);
			json_t *jid = json_object_get(m, "jid");
			if (json_is_string(jid)) {
				json_t *out = json_pack("{s:O, s:O, s:O}", "jid", jid, "event",
				                        json_object_get(m, "event") ? json_object_get(m, "event") : json_null(),
				                        "queue", json_object_get(m, "queue") ? json_object_get(m, "queue") : json_null());
				char *f = frame("job", out);
				if (f != NULL)
					push(s, f);
				dirty = 1;
			}
			json_decref(m);
		}
		qless_free(channel);
		qless_free(message);
		if (dirty && mono() - last_counts >= 1.0) {
			push_counts(s, client);
			last_counts = mono();
			dirty = 0;
		}
	}
	qless_events_free(ev);
	qless_client_free(client);
	return NULL;
}

int web_sse_new(web_sse **out, const char *url)
{
	web_sse *s = calloc(1, sizeof *s);
	if (s == NULL)
		return -1;
	s->url = url ? strdup(url) : NULL;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->changed, NULL);
	*out = s;
	return 0;
}

static ssize_t read_events(void *cls, uint64_t pos, char *buf, size_t max)
{
	(void)pos;
	reader *rd = cls;
	web_sse *s = rd->sse;
	if (rd->pos < rd->len) {
		size_t n = rd->len - rd->pos < max ? rd->len - rd->pos : max;
		memcpy(buf, rd->pending + rd->pos, n);
		rd->pos += n;
		return (ssize_t)n;
	}
	free(rd->pending);
	rd->pending = NULL;
	rd->len = rd->pos = 0;
	pthread_mutex_lock(&s->lock);
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 15;
	int timed_out = 0;
	while (!s->stopping && rd->next == s->seq && !timed_out)
		timed_out = pthread_cond_timedwait(&s->changed, &s->lock, &until) != 0;
	if (s->stopping) {
		pthread_mutex_unlock(&s->lock);
		return MHD_CONTENT_READER_END_OF_STREAM;
	}
	if (rd->next + RING < s->seq)
		rd->next = s->seq - RING;   /* a slow page misses the oldest */
	if (rd->next < s->seq) {
		rd->pending = strdup(s->ring[rd->next % RING]);
		rd->next++;
	}
	pthread_mutex_unlock(&s->lock);
	if (rd->pending == NULL)
		rd->pending = strdup(": keep-alive\n\n");   /* also finds pages that left */
	if (rd->pending == NULL)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	rd->len = strlen(rd->pending);
	return read_events(cls, pos, buf, max);
}

static void reader_done(void *cls)
{
	reader *rd = cls;
	web_sse *s = rd->sse;
	pthread_mutex_lock(&s->lock);
	s->nclients--;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
	free(rd->pending);
	free(rd);
}

struct MHD_Response *web_sse_response(web_sse *s)
{
	reader *rd = calloc(1, sizeof *rd);
	if (rd == NULL)
		return NULL;
	rd->sse = s;
	rd->pending = strdup("retry: 3000\n\n");
	rd->len = rd->pending ? strlen(rd->pending) : 0;
	pthread_mutex_lock(&s->lock);
	rd->next = s->seq;
	s->nclients++;
	if (!s->hub_running && !s->stopping) {
		if (s->hub != 0)
			pthread_join(s->hub, NULL);   /* the last hub has ended (hub_running 0) */
		s->hub = 0;
		s->hub_running = pthread_create(&s->hub, NULL, hub_main, s) == 0;
	}
	pthread_mutex_unlock(&s->lock);
	struct MHD_Response *resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, read_events, rd, reader_done);
	if (resp == NULL)
		reader_done(rd);
	return resp;
}

void web_sse_free(web_sse *s)
{
	if (s == NULL)
		return;
	pthread_mutex_lock(&s->lock);
	s->stopping = 1;
	pthread_cond_broadcast(&s->changed);
	pthread_t hub = s->hub;
	pthread_mutex_unlock(&s->lock);
	if (hub != 0)
		pthread_join(hub, NULL);
	/* The streams end on their next read; the daemon's stop waits for them,
	 * so the rest is freed by web_sse_destroy after MHD_stop_daemon. */
}

void web_sse_destroy(web_sse *s)
{
	if (s == NULL)
		return;
	for (int i = 0; i < RING; i++)
		free(s->ring[i]);
	free(s->url);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->changed);
	free(s);
}
