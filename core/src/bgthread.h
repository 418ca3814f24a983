/* Heartbeat threads (bgthread.c). */
#ifndef QLESS_BGTHREAD_H
#define QLESS_BGTHREAD_H

#include <pthread.h>

/* Starts fn(arg) with every signal blocked, after initialising mu and a
 * CLOCK_MONOTONIC cv for it; returns 0, or an errno with mu and cv
 * destroyed again. qless__bg_stop sets *stop under mu, wakes the thread,
 * joins it and destroys mu and cv. */
int qless__bg_start(pthread_t *thread, pthread_mutex_t *mu, pthread_cond_t *cv, void *(*fn)(void *), void *arg);
void qless__bg_stop(pthread_t thread, pthread_mutex_t *mu, pthread_cond_t *cv, int *stop);

#endif
