/* The allow-list of job classes (allowlist.c). */
#ifndef QLESS_ALLOWLIST_H
#define QLESS_ALLOWLIST_H


/* Why an allow pattern is invalid (static text), or NULL if it is valid. */
const char *qless__allow_invalid(const char *pattern);

#endif
