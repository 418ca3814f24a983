/* Redis Cluster hash slots: CRC16/XMODEM (polynomial 0x1021, initial 0,
 * no reflection) of a key or of its hash tag. Bit by bit: a call hashes one
 * short namespace key, so a 512-byte table would buy nothing. */
#include <string.h>

#include "slot.h"

static unsigned crc16(const unsigned char *p, size_t len)
{
	unsigned crc = 0;
	size_t i;
	int b;
	for (i = 0; i < len; i++) {
		crc ^= (unsigned)p[i] << 8;
		for (b = 0; b < 8; b++)
			crc = (crc & 0x8000) ? ((crc << 1) ^ 0x1021) & 0xFFFF : (crc << 1) & 0xFFFF;
	}
	return crc;
}

unsigned qless__key_slot(const char *key, size_t len)
{
	const char *open = memchr(key, '{', len), *close;
	if (open != NULL) {
		size_t rest = len - (size_t)(open - key) - 1;
		close = memchr(open + 1, '}', rest);
		/* "{}" is no tag: the whole key is hashed. */
		if (close != NULL && close > open + 1) {
			key = open + 1;
			len = (size_t)(close - key);
		}
	}
	return crc16((const unsigned char *)key, len) & (QLESS__SLOTS - 1);
}
