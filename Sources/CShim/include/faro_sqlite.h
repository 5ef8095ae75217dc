// CShim.SQLite: SQLite's destructor constants, which Swift cannot spell. Needs only sqlite3.h.
#ifndef FARO_SHIM_SQLITE_H
#define FARO_SHIM_SQLITE_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is `((sqlite3_destructor_type)-1)`, which Swift cannot express: SQLite copies the text.
int faro_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index, const char *text, int length);

/// The same for blobs: SQLite copies the bytes before the call returns.
int faro_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index, const void *bytes, int length);

#endif
