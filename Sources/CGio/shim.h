// Umbrella header: what Swift sees of GIO (GDBus) and GLib's Unix helpers, without GTK.
#include <gio/gio.h>
#include <glib-unix.h>
