/* ql:features (features.c). */
#ifndef QLESS_DB_FEATURES_H
#define QLESS_DB_FEATURES_H

#include "qless/common.h"

/* Reads ql:features into c->features on a new connection; QLESS_ESTATE
 * when the database holds a feature this library lacks. */
int qless__features_read(qless_client *c, const char *func);

#endif
