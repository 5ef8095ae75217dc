// CShim.GObject: the GObject macros and variadic calls Swift cannot import. Needs only GLib/GObject headers.
#ifndef FARO_SHIM_GOBJECT_H
#define FARO_SHIM_GOBJECT_H

#include <glib-object.h>

/// g_signal_connect is a macro over g_signal_connect_data; this is the data form with its destroy notify, so a
/// boxed Swift closure is released by GLib when the handler goes away.
gulong faro_g_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data,
                             GClosureNotify destroy);

/// G_OBJECT()/g_object_unref on a gpointer: Swift sees GTK types as distinct opaque pointers, this takes any.
void faro_g_object_unref(gpointer object);

#endif
