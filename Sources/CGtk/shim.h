// Umbrella header: what Swift sees of this C library.
#include <gtk/gtk.h>
