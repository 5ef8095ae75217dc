/* Time spent parsing GtkBuilder UI definitions, measured inside a running program (bench/window/run.sh).
 *
 * An LD_PRELOAD library: it wraps the GtkBuilder entry points an application calls (gtk_builder_new_from_*,
 * gtk_builder_add_from_*, gtk_builder_add_objects_from_*, gtk_builder_extend_with_template and
 * gtk_widget_init_template, the call a widget with a template makes in its init), times each outermost call
 * (CLOCK_MONOTONIC and the calling thread's CPU time) and, at exit, appends one line to the file named by
 * $FARO_BUILDER_TIMING:
 *
 *   builder_calls=<n> builder_ms=<wall ms> builder_cpu_ms=<cpu ms>
 *
 * A call made from inside another wrapped call (GTK's own nesting) is counted in the outer one only. Calls GTK makes
 * internally between its own functions do not go through the dynamic linker and are not seen separately, which is
 * what is wanted: they are part of the outer call's time. Nothing else of the program changes.
 *
 * Build: cc -O2 -shared -fPIC builder_timing.c -o builder_timing.so $(pkg-config --cflags gtk+-3.0) -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long calls;
static double wall_ms, cpu_ms;
static __thread int depth;

static double now_ms(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *real(const char *name) {
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "builder_timing: %s not found\n", name);
        abort();
    }
    return f;
}

/* BEGIN/END bracket the real call: only the outermost wrapped call adds its time. */
#define BEGIN                                                                                                     \
    double w0 = 0, c0 = 0;                                                                                        \
    if (depth++ == 0) {                                                                                           \
        w0 = now_ms(CLOCK_MONOTONIC);                                                                             \
        c0 = now_ms(CLOCK_THREAD_CPUTIME_ID);                                                                     \
    }
#define END                                                                                                       \
    if (--depth == 0) {                                                                                           \
        __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);                                                          \
        wall_ms += now_ms(CLOCK_MONOTONIC) - w0;                                                                  \
        cpu_ms += now_ms(CLOCK_THREAD_CPUTIME_ID) - c0;                                                           \
    }

#define WRAP_ADD(name, arg_t)                                                                                     \
    guint name(GtkBuilder *b, arg_t a, GError **e) {                                                              \
        static guint (*f)(GtkBuilder *, arg_t, GError **);                                                        \
        if (!f) f = real(#name);                                                                                  \
        BEGIN guint r = f(b, a, e);                                                                               \
        END return r;                                                                                             \
    }
WRAP_ADD(gtk_builder_add_from_file, const gchar *)
WRAP_ADD(gtk_builder_add_from_resource, const gchar *)

guint gtk_builder_add_from_string(GtkBuilder *b, const gchar *s, gsize n, GError **e) {
    static guint (*f)(GtkBuilder *, const gchar *, gsize, GError **);
    if (!f) f = real("gtk_builder_add_from_string");
    BEGIN guint r = f(b, s, n, e);
    END return r;
}

#define WRAP_OBJECTS(name, arg_t)                                                                                 \
    guint name(GtkBuilder *b, arg_t a, gchar **ids, GError **e) {                                                 \
        static guint (*f)(GtkBuilder *, arg_t, gchar **, GError **);                                              \
        if (!f) f = real(#name);                                                                                  \
        BEGIN guint r = f(b, a, ids, e);                                                                          \
        END return r;                                                                                             \
    }
WRAP_OBJECTS(gtk_builder_add_objects_from_file, const gchar *)
WRAP_OBJECTS(gtk_builder_add_objects_from_resource, const gchar *)

guint gtk_builder_add_objects_from_string(GtkBuilder *b, const gchar *s, gsize n, gchar **ids, GError **e) {
    static guint (*f)(GtkBuilder *, const gchar *, gsize, gchar **, GError **);
    if (!f) f = real("gtk_builder_add_objects_from_string");
    BEGIN guint r = f(b, s, n, ids, e);
    END return r;
}

#define WRAP_NEW(name)                                                                                            \
    GtkBuilder *name(const gchar *a) {                                                                            \
        static GtkBuilder *(*f)(const gchar *);                                                                   \
        if (!f) f = real(#name);                                                                                  \
        BEGIN GtkBuilder *r = f(a);                                                                               \
        END return r;                                                                                             \
    }
WRAP_NEW(gtk_builder_new_from_file)
WRAP_NEW(gtk_builder_new_from_resource)

GtkBuilder *gtk_builder_new_from_string(const gchar *s, gssize n) {
    static GtkBuilder *(*f)(const gchar *, gssize);
    if (!f) f = real("gtk_builder_new_from_string");
    BEGIN GtkBuilder *r = f(s, n);
    END return r;
}

guint gtk_builder_extend_with_template(GtkBuilder *b, GtkWidget *w, GType t, const gchar *s, gsize n, GError **e) {
    static guint (*f)(GtkBuilder *, GtkWidget *, GType, const gchar *, gsize, GError **);
    if (!f) f = real("gtk_builder_extend_with_template");
    BEGIN guint r = f(b, w, t, s, n, e);
    END return r;
}

void gtk_widget_init_template(GtkWidget *w) {
    static void (*f)(GtkWidget *);
    if (!f) f = real("gtk_widget_init_template");
    BEGIN f(w);
    END
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("FARO_BUILDER_TIMING");
    if (!path || !*path) return;
    FILE *out = fopen(path, "a");
    if (!out) return;
    fprintf(out, "builder_calls=%ld builder_ms=%.3f builder_cpu_ms=%.3f\n", calls, wall_ms, cpu_ms);
    fclose(out);
}
