// Benchmark consumer: the plain C GIO baseline for the BlueZ background-monitoring benchmark.
//
// Subscribes to PropertiesChanged from org.bluez on the bus in DBUS_SYSTEM_BUS_ADDRESS, as Faro does, and decodes
// each one the same way: Device1 only, RSSI (n) and ManufacturerData (a{qv}), Apple's 0x004C payload checked for an
// iBeacon (02 15, 23 bytes) and its UUID, major, minor and power read. On SIGTERM it prints
// `signals=N beacons=M` and exits.
#include <gio/gio.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static long signals, beacons;
static unsigned long checksum;
static GMainLoop *loop;

static void on_properties_changed(GDBusConnection *c, const gchar *sender, const gchar *path, const gchar *iface,
                                  const gchar *name, GVariant *params, gpointer data) {
    (void)c; (void)sender; (void)path; (void)iface; (void)name; (void)data;
    signals++;
    if (!g_variant_is_of_type(params, G_VARIANT_TYPE("(sa{sv}as)"))) return;
    const gchar *interface;
    GVariant *changes;
    g_variant_get_child(params, 0, "&s", &interface);
    if (strcmp(interface, "org.bluez.Device1") != 0) return;
    changes = g_variant_get_child_value(params, 1);
    gint16 rssi = 127;
    GVariant *value = g_variant_lookup_value(changes, "RSSI", G_VARIANT_TYPE_INT16);
    if (value) {
        rssi = g_variant_get_int16(value);
        g_variant_unref(value);
    }
    GVariant *data_map = g_variant_lookup_value(changes, "ManufacturerData", G_VARIANT_TYPE("a{qv}"));
    if (data_map) {
        gsize n = g_variant_n_children(data_map);
        for (gsize i = 0; i < n; i++) {
            guint16 company;
            GVariant *boxed;
            g_variant_get_child(data_map, i, "{qv}", &company, &boxed);
            if (company == 0x004C && g_variant_is_of_type(boxed, G_VARIANT_TYPE_BYTESTRING)) {
                gsize length;
                const guint8 *p = g_variant_get_fixed_array(boxed, &length, 1);
                if (length >= 23 && p[0] == 0x02 && p[1] == 0x15) {
                    unsigned major = (unsigned)(p[18] << 8 | p[19]), minor = (unsigned)(p[20] << 8 | p[21]);
                    checksum += p[2] + major + minor + (unsigned)(gint8)p[22] + (unsigned)rssi;
                    beacons++;
                }
            }
            g_variant_unref(boxed);
        }
        g_variant_unref(data_map);
    }
    g_variant_unref(changes);
}

static gboolean quit(gpointer data) {
    (void)data;
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

// A parent may leave signals blocked (children inherit the mask); the GLib signal sources need them delivered.
static void unblock_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

int main(void) {
    unblock_signals();
    GError *error = NULL;
    GDBusConnection *connection = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, &error);
    if (!connection) {
        fprintf(stderr, "consumer: %s\n", error->message);
        return 1;
    }
    g_dbus_connection_signal_subscribe(connection, "org.bluez", "org.freedesktop.DBus.Properties",
                                       "PropertiesChanged", NULL, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                       on_properties_changed, NULL, NULL);
    loop = g_main_loop_new(NULL, FALSE);
    g_unix_signal_add(SIGTERM, quit, NULL);
    g_unix_signal_add(SIGINT, quit, NULL);
    g_main_loop_run(loop);
    printf("signals=%ld beacons=%ld checksum=%lu\n", signals, beacons, checksum);
    return 0;
}
