#ifndef IMGFETCH_CMALLOC_SHIM_H
#define IMGFETCH_CMALLOC_SHIM_H
// glibc's mallopt and its M_* parameters, which the Glibc module does not export.
#include <malloc.h>
#endif
