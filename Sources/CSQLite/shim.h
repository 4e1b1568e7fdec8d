#ifndef IMGFETCH_CSQLITE_SHIM_H
#define IMGFETCH_CSQLITE_SHIM_H
#include <sqlite3.h>
// SQLITE_TRANSIENT is a cast macro ((sqlite3_destructor_type)-1) that Swift cannot import.
static inline sqlite3_destructor_type imgfetch_sqlite_transient(void) { return SQLITE_TRANSIENT; }
// sqlite3_config is variadic, which Swift cannot call. No bulk page-cache allocation per
// connection: SQLite would otherwise allocate and write a header into 20 pages' worth of memory at
// the first read (19 page faults of a cache hit's 400), where a hit reads three or four pages.
// Must run before the first connection opens; returns SQLite's result code.
static inline int imgfetch_sqlite_configure_page_cache(void) {
    return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
}
// sqlite3_db_config is variadic too. Makes the connection close without checkpointing the
// write-ahead log (see SQLiteDatabase.deinit); returns SQLite's result code.
static inline int imgfetch_sqlite_skip_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
#endif
