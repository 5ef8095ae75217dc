// Bodies of the libsoup-3 wrappers: each only forwards to the variadic function it is named after.
#include "faro_soup.h"

SoupServer *faro_soup_server_new(void) { return soup_server_new(NULL); }
