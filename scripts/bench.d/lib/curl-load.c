// What every imgfetch fetch pays before its first byte, alone: libcurl and the 30-odd libraries it
// links loaded the way imgfetch loads them (dlopen, lazy, local; Sources/CLibraryLoading), then
// curl_global_init and the UTF-8 character locale (Sources/CCurl). coldstart.sh times it beside
// `curl -s -o` and `imgfetch get` to show how much of a one-URL fetch is this load.
#include <dlfcn.h>
#include <locale.h>
#include <stdio.h>

int main(void) {
    void *library = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "curl-load: %s\n", dlerror());
        return 1;
    }
    int (*global_init)(long) = (int (*)(long))dlsym(library, "curl_global_init");
    if (global_init == NULL || global_init(3 /* CURL_GLOBAL_ALL */) != 0) {
        fprintf(stderr, "curl-load: curl_global_init failed\n");
        return 1;
    }
    setlocale(LC_CTYPE, "C.UTF-8");
    return 0;
}
