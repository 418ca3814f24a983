/* The live handle count (handles.c): +1 as a handle is made, -1 as it is freed. */
#ifndef QLESS_HANDLES_H
#define QLESS_HANDLES_H


void qless__handle_add(int delta);

#endif
