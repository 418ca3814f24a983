/* The count of live handles (clients, queues, jobs, lists, ...), which tests
 * and bindings read to find leaks (qless_handle_count). */
#include <stdint.h>

#include "qless/qless.h"
#include "handles.h"

static int64_t live_handles;

void qless__handle_add(int delta)
{
	__atomic_add_fetch(&live_handles, (int64_t)delta, __ATOMIC_RELAXED);
}

int64_t qless_handle_count(void)
{
	return __atomic_load_n(&live_handles, __ATOMIC_RELAXED);
}
