/* DEPRECATED: do not include this file in new code.
 *
 * libqless' private declarations used to live here, one header for every
 * core file. They are now split into one short header per module (errors.h,
 * util.h, call.h, client_state.h, ...); a core file includes the ones it
 * uses (tests/check-layout.py fails when a core source includes this
 * file). This umbrella only remains so that files written against it still
 * build until they are converted; it will be removed. */
#ifndef QLESS_INTERNAL_H
#define QLESS_INTERNAL_H

#include "qless/qless.h"

#include "errors.h"
#include "util.h"
#include "options.h"
#include "handles.h"
#include "ids.h"
#include "strlist.h"
#include "joblist.h"
#include "url.h"
#include "bgthread.h"
#include "conn.h"
#include "args.h"
#include "client_state.h"
#include "embedded_script.h"
#include "protocol.h"
#include "db_features.h"
#include "call.h"
#include "client_admin.h"
#include "queue_counts.h"
#include "job_snapshot.h"
#include "job_settle.h"
#include "put.h"
#include "queue_handle.h"
#include "unique.h"
#include "recurring.h"
#include "next_times.h"
#include "tree_args.h"

#endif
