// Umbrella header: what Swift sees of this C library.
#include <sqlite3.h>
