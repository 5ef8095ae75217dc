// Benchmark producer: plays bluetoothd for the BlueZ background-monitoring benchmark.
//
// Owns org.bluez on the bus in DBUS_SYSTEM_BUS_ADDRESS, answers GetManagedObjects (one powered adapter, hci0, and
// BEACONS iBeacon devices), accepts SetDiscoveryFilter/StartDiscovery/StopDiscovery, and after SIGUSR1 emits
// PropertiesChanged(org.bluez.Device1, {RSSI, ManufacturerData}) for every beacon RATE times a second for SECONDS
// seconds, paced on the monotonic clock so that exactly BEACONS x RATE x SECONDS signals go out. Then it prints
// `emitted=N` and exits.
//
// Usage: producer [BEACONS] [RATE] [SECONDS]       (defaults 100 10 60)
#include <gio/gio.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static const char *introspection =
    "<node>"
    " <interface name='org.freedesktop.DBus.ObjectManager'>"
    "  <method name='GetManagedObjects'><arg type='a{oa{sa{sv}}}' direction='out'/></method>"
    " </interface>"
    " <interface name='org.bluez.Adapter1'>"
    "  <method name='SetDiscoveryFilter'><arg type='a{sv}' direction='in'/></method>"
    "  <method name='StartDiscovery'/>"
    "  <method name='StopDiscovery'/>"
    " </interface>"
    "</node>";

static int beacons = 100, rate = 10, seconds = 60;
static GDBusConnection *connection;
static GMainLoop *loop;
static gint64 started;
static long emitted, target;

static void device_path(int i, char *out, size_t size) {
    snprintf(out, size, "/org/bluez/hci0/dev_C0_FF_EE_00_%02X_%02X", (i >> 8) & 0xFF, i & 0xFF);
}

static GVariant *manufacturer_data(int i) {
    guint8 payload[23] = {0x02, 0x15, 0xf7, 0x82, 0x6d, 0xa6, 0x4f, 0xa2, 0x4e, 0x98,
                          0x80, 0x24, 0xbc, 0x5b, 0x71, 0xe0, 0x89, 0x3e, 0x00, 0x01, 0, 0, 0xc5};
    payload[20] = (guint8)(i >> 8);
    payload[21] = (guint8)(i & 0xFF);
    GVariantBuilder builder;
    g_variant_builder_init(&builder, G_VARIANT_TYPE("a{qv}"));
    g_variant_builder_add(&builder, "{qv}", (guint16)0x004C,
                          g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, payload, sizeof payload, 1));
    return g_variant_builder_end(&builder);
}

static gint16 rssi_for(int i, long round) { return (gint16)(-50 - (i % 30) - (round % 7)); }

static void method_call(GDBusConnection *c, const gchar *sender, const gchar *path, const gchar *iface,
                        const gchar *method, GVariant *params, GDBusMethodInvocation *invocation, gpointer data) {
    (void)c; (void)sender; (void)path; (void)iface; (void)params; (void)data;
    if (g_strcmp0(method, "GetManagedObjects") == 0) {
        GVariantBuilder objects;
        g_variant_builder_init(&objects, G_VARIANT_TYPE("a{oa{sa{sv}}}"));
        g_variant_builder_open(&objects, G_VARIANT_TYPE("{oa{sa{sv}}}"));
        g_variant_builder_add(&objects, "o", "/org/bluez/hci0");
        g_variant_builder_open(&objects, G_VARIANT_TYPE("a{sa{sv}}"));
        g_variant_builder_open(&objects, G_VARIANT_TYPE("{sa{sv}}"));
        g_variant_builder_add(&objects, "s", "org.bluez.Adapter1");
        g_variant_builder_open(&objects, G_VARIANT_TYPE("a{sv}"));
        g_variant_builder_add(&objects, "{sv}", "Powered", g_variant_new_boolean(TRUE));
        g_variant_builder_add(&objects, "{sv}", "Discovering", g_variant_new_boolean(FALSE));
        g_variant_builder_close(&objects);
        g_variant_builder_close(&objects);
        g_variant_builder_close(&objects);
        g_variant_builder_close(&objects);
        for (int i = 0; i < beacons; i++) {
            char path_text[64], address[32];
            device_path(i, path_text, sizeof path_text);
            snprintf(address, sizeof address, "C0:FF:EE:00:%02X:%02X", (i >> 8) & 0xFF, i & 0xFF);
            g_variant_builder_open(&objects, G_VARIANT_TYPE("{oa{sa{sv}}}"));
            g_variant_builder_add(&objects, "o", path_text);
            g_variant_builder_open(&objects, G_VARIANT_TYPE("a{sa{sv}}"));
            g_variant_builder_open(&objects, G_VARIANT_TYPE("{sa{sv}}"));
            g_variant_builder_add(&objects, "s", "org.bluez.Device1");
            g_variant_builder_open(&objects, G_VARIANT_TYPE("a{sv}"));
            g_variant_builder_add(&objects, "{sv}", "Address", g_variant_new_string(address));
            g_variant_builder_add(&objects, "{sv}", "Adapter", g_variant_new_object_path("/org/bluez/hci0"));
            g_variant_builder_add(&objects, "{sv}", "RSSI", g_variant_new_int16(rssi_for(i, 0)));
            g_variant_builder_add(&objects, "{sv}", "ManufacturerData", manufacturer_data(i));
            g_variant_builder_close(&objects);
            g_variant_builder_close(&objects);
            g_variant_builder_close(&objects);
            g_variant_builder_close(&objects);
        }
        g_dbus_method_invocation_return_value(invocation, g_variant_new("(a{oa{sa{sv}}})", &objects));
    } else {
        g_dbus_method_invocation_return_value(invocation, NULL);
    }
}

static const GDBusInterfaceVTable vtable = {method_call, NULL, NULL, {0}};

static gboolean emit(gpointer data) {
    (void)data;
    gint64 elapsed = g_get_monotonic_time() - started;
    long due = (long)(elapsed * beacons * rate / G_USEC_PER_SEC);
    if (due > target) due = target;
    while (emitted < due) {
        int i = (int)(emitted % beacons);
        long round = emitted / beacons;
        char path[64];
        device_path(i, path, sizeof path);
        GVariantBuilder changes;
        g_variant_builder_init(&changes, G_VARIANT_TYPE("a{sv}"));
        g_variant_builder_add(&changes, "{sv}", "RSSI", g_variant_new_int16(rssi_for(i, round)));
        g_variant_builder_add(&changes, "{sv}", "ManufacturerData", manufacturer_data(i));
    GError *error = NULL;
        if (!g_dbus_connection_emit_signal(connection, NULL, path, "org.freedesktop.DBus.Properties",
                                           "PropertiesChanged",
                                           g_variant_new("(sa{sv}as)", "org.bluez.Device1", &changes, NULL),
                                           &error)) {
            fprintf(stderr, "producer: emit failed: %s\n", error->message);
            g_error_free(error);
        }
        emitted++;
    }
    if (emitted >= target) {
        g_dbus_connection_flush_sync(connection, NULL, NULL);
        g_main_loop_quit(loop);
        return G_SOURCE_REMOVE;
    }
    return G_SOURCE_CONTINUE;
}

static gboolean go(gpointer data) {
    (void)data;
    started = g_get_monotonic_time();
    g_timeout_add(10, emit, NULL);
    return G_SOURCE_REMOVE;
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

int main(int argc, char **argv) {
    if (argc > 1) beacons = atoi(argv[1]);
    if (argc > 2) rate = atoi(argv[2]);
    if (argc > 3) seconds = atoi(argv[3]);
    target = (long)beacons * rate * seconds;
    unblock_signals();
    GError *error = NULL;
    connection = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, &error);
    if (!connection) {
        fprintf(stderr, "producer: %s\n", error->message);
        return 1;
    }
    GDBusNodeInfo *node = g_dbus_node_info_new_for_xml(introspection, NULL);
    g_dbus_connection_register_object(connection, "/", node->interfaces[0], &vtable, NULL, NULL, NULL);
    g_dbus_connection_register_object(connection, "/org/bluez/hci0", node->interfaces[1], &vtable, NULL, NULL, NULL);
    GVariant *reply = g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                  "org.freedesktop.DBus", "RequestName",
                                                  g_variant_new("(su)", "org.bluez", 4u), NULL,
                                                  G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
    if (!reply) {
        fprintf(stderr, "producer: %s\n", error->message);
        return 1;
    }
    g_variant_unref(reply);
    loop = g_main_loop_new(NULL, FALSE);
    g_unix_signal_add(SIGUSR1, go, NULL);
    g_unix_signal_add(SIGTERM, quit, NULL);
    printf("ready\n");
    fflush(stdout);
    g_main_loop_run(loop);
    printf("emitted=%ld\n", emitted);
    return 0;
}
