// Umbrella header: what Swift sees of this C library.
#include <libnotify/notify.h>
