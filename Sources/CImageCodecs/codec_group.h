#ifndef IMGFETCH_CODEC_GROUP_H
#define IMGFETCH_CODEC_GROUP_H
// Private to CImageCodecs' C files: how each file loads its group of libraries.
#include "CLibraryLoading.h"
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

// One group of libraries loaded together: a failure message, or NULL once every symbol resolved.
struct group {
    pthread_once_t once;
    char error[512];
    int loaded;
};

/// Loads `soname` and the functions `LIST` names into `api` (see CLibraryLoading.h); on failure
/// leaves the reason in `group` and returns from the load function.
#define LOAD(group, soname, package, api, LIST)                                                  \
    if (!IMGFETCH_LOAD_LIBRARY(api, LIST, soname, "Debian package " package, group.error, sizeof group.error)) \
        return

/// A group of one library: `name##_api`, the struct of the functions `LIST` names, and
/// imgfetch_##name##_load, which loads `soname` and resolves them once per process.
#define LIBRARY_GROUP(name, LIST, soname, package)         \
    static struct group name = {PTHREAD_ONCE_INIT, "", 0}; \
    static struct {                                        \
        LIST(IMGFETCH_POINTER)                             \
    } name##_api;                                          \
    static void load_##name(void) {                        \
        LOAD(name, soname, package, name##_api, LIST);     \
        name.loaded = 1;                                   \
    }                                                      \
    LOADER(name, name)

#define LOADER(name, group)                                     \
    const char *imgfetch_##name##_load(void) {                  \
        pthread_once(&group.once, load_##name);                 \
        return group.loaded ? NULL : group.error;               \
    }

/// Copies `text` (or `fallback` when it is NULL or empty) into `message`, NUL-terminated.
static inline void imgfetch_copy_message(char *message, size_t message_size, const char *text, const char *fallback) {
    if (message_size == 0) return;
    const char *chosen = (text != NULL && text[0] != '\0') ? text : fallback;
    strncpy(message, chosen, message_size - 1);
    message[message_size - 1] = '\0';
}

#endif
