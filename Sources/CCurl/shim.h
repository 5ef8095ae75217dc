// Umbrella header: what Swift sees of this C library.
#include <curl/curl.h>
