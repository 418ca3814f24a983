/*
 * The connections to the qless server. A client may be used by one thread
 * at a time (common.h) and libmicrohttpd runs a thread per HTTP
 * connection, so each request leases one client and gives it back; with
 * all leased, the next request waits.
 */
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include "server.h"

struct web_pool {
	pthread_mutex_t lock;
	pthread_cond_t freed;
	int size;
	int nfree;
	qless_client **free;   /* the idle clients (a stack) */
	qless_client **all;
};

int web_pool_new(web_pool **out, const char *url, int size, char *err, size_t errlen)
{
	web_pool *p = calloc(1, sizeof *p);
	if (p == NULL)
		return -1;
	p->free = calloc((size_t)size, sizeof *p->free);
	p->all = calloc((size_t)size, sizeof *p->all);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->freed, NULL);
	if (p->free == NULL || p->all == NULL) {
		web_pool_free(p);
		return -1;
	}
	for (int i = 0; i < size; i++) {
		if (qless_client_new(&p->all[i], url, NULL) != QLESS_OK) {
			snprintf(err, errlen, "cannot connect to the qless server: %s", qless_error_last_message());
			web_pool_free(p);
			return -1;
		}
		p->size++;
		p->free[p->nfree++] = p->all[i];
	}
	*out = p;
	return 0;
}

qless_client *web_pool_lease(web_pool *pool)
{
	pthread_mutex_lock(&pool->lock);
	while (pool->nfree == 0)
		pthread_cond_wait(&pool->freed, &pool->lock);
	qless_client *c = pool->free[--pool->nfree];
	pthread_mutex_unlock(&pool->lock);
	return c;
}

void web_pool_return(web_pool *pool, qless_client *client)
{
	if (client == NULL)
		return;
	pthread_mutex_lock(&pool->lock);
	pool->free[pool->nfree++] = client;
	pthread_cond_signal(&pool->freed);
	pthread_mutex_unlock(&pool->lock);
}

void web_pool_free(web_pool *pool)
{
	if (pool == NULL)
		return;
	for (int i = 0; i < pool->size; i++)
		qless_client_free(pool->all[i]);
	pthread_mutex_destroy(&pool->lock);
	pthread_cond_destroy(&pool->freed);
	free(pool->free);
	free(pool->all);
	free(pool);
}
