/*
 * libqless: the qless job queue over Redis, one C core for every language.
 * Include this header; link with `pkg-config --libs libqless`.
 */
#ifndef QLESS_H
#define QLESS_H

#include "common.h"
#include "client.h"
#include "queue.h"
#include "job.h"
#include "recur.h"
#include "worker.h"
#include "events.h"
#include "heartbeater.h"
#include "when.h"
#include "server.h"
#include "schedule.h"
#include "tree.h"

#endif
