#ifndef IMGFETCH_CGLIBCEXTRAS_SHIM_H
#define IMGFETCH_CGLIBCEXTRAS_SHIM_H
// glibc functions the Glibc module does not export: mallopt and its M_* parameters (<malloc.h>),
// the extended-attribute calls (<sys/xattr.h>), getauxval (<sys/auxv.h>), and
// pthread_setname_np, which <pthread.h> declares only under _GNU_SOURCE.
#include <malloc.h>
#include <pthread.h>
#include <sys/auxv.h>
#include <sys/xattr.h>
extern int pthread_setname_np(pthread_t thread, const char *name);
#endif
