// Umbrella header: what Swift sees of this C library.
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
