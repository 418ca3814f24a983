/* Redis Cluster hash slots (slot.c). */
#ifndef QLESS_SLOT_H
#define QLESS_SLOT_H

#include <stddef.h>

#define QLESS__SLOTS 16384

/* The hash slot Redis Cluster gives key[0..len): CRC16 (XMODEM) of the
 * key, or of its hash tag (the text between the first '{' and the next
 * '}', when not empty), modulo 16384. */
unsigned qless__key_slot(const char *key, size_t len);

#endif
