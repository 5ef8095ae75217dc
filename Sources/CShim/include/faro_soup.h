// libsoup-3 wrappers for faro-backend.
#ifndef FARO_SOUP_H
#define FARO_SOUP_H

#include <libsoup/soup.h>

/// soup_server_new is variadic (GObject properties, NULL-terminated): a server with default properties.
SoupServer *faro_soup_server_new(void);

#endif
