#ifndef IMGFETCH_CSQLITE_SHIM_H
#define IMGFETCH_CSQLITE_SHIM_H
#include <sqlite3.h>
// SQLITE_TRANSIENT is a cast macro ((sqlite3_destructor_type)-1) that Swift cannot import.
static inline sqlite3_destructor_type imgfetch_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
