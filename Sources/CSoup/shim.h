// Umbrella header: what Swift sees of this C library.
#include <libsoup/soup.h>
