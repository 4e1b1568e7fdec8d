#ifndef IMGFETCH_CGLIBCEXTRAS_SHIM_H
#define IMGFETCH_CGLIBCEXTRAS_SHIM_H
// glibc functions the Glibc module does not export: mallopt and its M_* parameters (<malloc.h>),
// the extended-attribute calls (<sys/xattr.h>), getauxval (<sys/auxv.h>), and
// pthread_setname_np and copy_file_range, which <pthread.h> and <unistd.h> declare only under
// _GNU_SOURCE.
#include <malloc.h>
#include <pthread.h>
#include <sys/auxv.h>
#include <sys/xattr.h>
#include <sys/types.h>
extern int pthread_setname_np(pthread_t thread, const char *name);
extern ssize_t copy_file_range(int fd_in, off_t *off_in, int fd_out, off_t *off_out, size_t len, unsigned int flags);
#endif
