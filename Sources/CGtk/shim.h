// Umbrella header: what Swift sees of GTK 3 (with GLib, GIO, ATK and cairo), plus gettext and locale setup.
#include <gtk/gtk.h>
#include <libintl.h>
#include <locale.h>
#include <glib-unix.h>
