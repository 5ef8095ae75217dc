// Bodies of CShim.GObject: each only forwards to the macro it is named after.
#include "faro_gobject.h"

gulong faro_g_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data,
                             GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

void faro_g_object_unref(gpointer object) { g_object_unref(G_OBJECT(object)); }
