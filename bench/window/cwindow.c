/* The plain C GTK3 reference of the window benchmark (bench/window/run.sh): a window the size of Faro's, with a
 * header bar (title switcher-like label, close button, menu button) and, in a scrolled window, a GtkListBox of the
 * eight demo places laid out as Faro's rows are (bold title, dim subtitle, a 72x24 sparkline drawing area, the
 * distance and the proximity). It quits right after its first frame: a "draw" handler on the toplevel queues
 * gtk_main_quit behind the rest of that frame with a low-priority idle (Faro prints a FARO_TIMINGS line at the same
 * point and is ended by launch.py).
 *
 * With --builder FILE the same window comes from a GtkBuilder definition (representative.ui: "window" parsed once,
 * "row" once per row, as Faro's templates would be) instead of code, so that the launch benchmark shows what
 * parsing templates costs beside the same window built in code.
 *
 * Built with -DCWINDOW_CURL (and libcurl), --pull URL makes it the like-for-like reference for Faro's run with rows:
 * behind its first frame, as Faro's LaunchWork does, it fetches the backend's catalog page with libcurl (the
 * tables protocol's headers, the answer read and dropped) before it quits, so libcurl with its TLS and
 * authentication libraries and OpenSSL's start are in its peak as they are in Faro's. It exits 1 unless the
 * answer is a 200.
 *
 * Build: cc -O2 cwindow.c -o cwindow $(pkg-config --cflags --libs gtk+-3.0)
 *        cc -O2 -DCWINDOW_CURL cwindow.c -o cwindow-curl $(pkg-config --cflags --libs gtk+-3.0 libcurl)
 * Run:   ./cwindow [--builder FILE]          (quits after the first frame)
 *        ./cwindow [--builder FILE] --stay   (stays open, for looking at it)
 *        ./cwindow-curl --pull URL           (quits after the first frame and the pull)
 *        ./cwindow-curl --stay --pull URL    (pulls a second after start and stays open)
 */
#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>
#ifdef CWINDOW_CURL
#include <curl/curl.h>
#endif

static const struct {
    const char *title, *client, *distance, *proximity;
} places[] = {
    {"Café de olla y pan dulce", "Café La Parroquia", "≈ 1.8 m", "near"},
    {"Novedades de la semana", "Librería El Péndulo", "≈ 4.2 m", "near"},
    {"Conchas recién horneadas", "Panadería Santa Clara", "≈ 7.5 m", "far"},
    {"Promociones del mes", "Farmacia del Centro", "≈ 12 m", "far"},
    {"Exposición: Luz de Oaxaca", "Galería Arte Vivo", "≈ 18 m", "far"},
    {"Textiles y barro negro", "Mercado de Artesanías", "≈ 25 m", "far"},
    {"Menú del día", "Taquería Los Cocuyos", "≈ 31 m", "far"},
    {"Cartelera de hoy", "Cine Tonalá", "≈ 40 m", "far"},
};

static const char *pull_url;

#ifdef CWINDOW_CURL
static size_t drop_body(char *data, size_t size, size_t count, void *user) {
    (void)data;
    *(size_t *)user += size * count;
    return size * count;
}

/* One GET of the catalog page, as Faro's tables client asks for it. Exits 1 unless the backend answers 200. */
static void pull_catalog(const char *url) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *curl = curl_easy_init();
    struct curl_slist *headers = curl_slist_append(NULL, "ZUMO-API-VERSION: 2.0.0");
    headers = curl_slist_append(headers, "Accept: application/json");
    size_t bytes = 0;
    long status = 0;
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, drop_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &bytes);
    CURLcode result = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    if (result != CURLE_OK || status != 200 || bytes == 0) {
        fprintf(stderr, "cwindow: %s: %s, HTTP %ld, %zu bytes\n", url, curl_easy_strerror(result), status, bytes);
        exit(1);
    }
}
#endif

#ifdef CWINDOW_CURL
/* --stay --pull: the pull a second after start, and the window stays (bench/memory-steady). */
static gboolean pull_once(gpointer data) {
    (void)data;
    pull_catalog(pull_url);
    return G_SOURCE_REMOVE;
}
#endif

static gboolean quit_now(gpointer data) {
    (void)data;
#ifdef CWINDOW_CURL
    if (pull_url) pull_catalog(pull_url);
#endif
    gtk_main_quit();
    return G_SOURCE_REMOVE;
}

static gboolean first_draw(GtkWidget *widget, cairo_t *cr, gpointer data) {
    static gboolean done = FALSE;
    (void)widget; (void)cr; (void)data;
    if (!done) {
        done = TRUE;
        g_idle_add_full(G_PRIORITY_LOW, quit_now, NULL, NULL);
    }
    return FALSE;
}

static gboolean draw_sparkline(GtkWidget *area, cairo_t *cr, gpointer data) {
    static const double values[] = {9, 8.5, 8.8, 7.9, 7.2, 7.4, 6.8, 6.1, 6.3, 5.9};
    const int n = sizeof values / sizeof values[0];
    double width = gtk_widget_get_allocated_width(area), height = gtk_widget_get_allocated_height(area);
    double lo = 5.9, hi = 9, shift = GPOINTER_TO_INT(data);
    GdkRGBA color;
    GtkStyleContext *context = gtk_widget_get_style_context(area);
    gtk_style_context_get_color(context, gtk_style_context_get_state(context), &color);
    cairo_set_source_rgba(cr, color.red, color.green, color.blue, 0.8);
    cairo_set_line_width(cr, 1.5);
    for (int i = 0; i < n; i++) {
        double x = width * i / (n - 1), y = 2 + (height - 4) * ((values[(i + (int)shift) % n] - lo) / (hi - lo));
        if (i == 0) cairo_move_to(cr, x, y); else cairo_line_to(cr, x, y);
    }
    cairo_stroke(cr);
    return TRUE;
}

static GtkWidget *make_row(int i) {
    GtkWidget *row = gtk_list_box_row_new();
    GtkWidget *grid = gtk_grid_new();
    GtkWidget *title = gtk_label_new(NULL), *subtitle = gtk_label_new(places[i].client);
    GtkWidget *distance = gtk_label_new(places[i].distance), *proximity = gtk_label_new(places[i].proximity);
    GtkWidget *spark = gtk_drawing_area_new();
    char *markup = g_markup_printf_escaped("<b>%s</b>", places[i].title);
    gtk_label_set_markup(GTK_LABEL(title), markup);
    g_free(markup);
    GtkWidget *labels[] = {title, subtitle};
    for (int k = 0; k < 2; k++) {
        gtk_label_set_xalign(GTK_LABEL(labels[k]), 0);
        gtk_label_set_ellipsize(GTK_LABEL(labels[k]), PANGO_ELLIPSIZE_END);
        gtk_widget_set_hexpand(labels[k], TRUE);
    }
    gtk_style_context_add_class(gtk_widget_get_style_context(subtitle), "dim-label");
    gtk_style_context_add_class(gtk_widget_get_style_context(proximity), "dim-label");
    gtk_label_set_xalign(GTK_LABEL(distance), 1);
    gtk_label_set_xalign(GTK_LABEL(proximity), 1);
    gtk_widget_set_size_request(spark, 72, 24);
    gtk_widget_set_valign(spark, GTK_ALIGN_CENTER);
    g_signal_connect(spark, "draw", G_CALLBACK(draw_sparkline), GINT_TO_POINTER(i));
    gtk_grid_set_column_spacing(GTK_GRID(grid), 12);
    gtk_grid_set_row_spacing(GTK_GRID(grid), 2);
    gtk_container_set_border_width(GTK_CONTAINER(grid), 8);
    gtk_grid_attach(GTK_GRID(grid), title, 0, 0, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), subtitle, 0, 1, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), spark, 1, 0, 1, 2);
    gtk_grid_attach(GTK_GRID(grid), distance, 2, 0, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), proximity, 2, 1, 1, 1);
    gtk_container_add(GTK_CONTAINER(row), grid);
    return row;
}

/* One row from the "row" object of a GtkBuilder file, filled like make_row's. */
static GtkWidget *make_row_from(const char *file, int i) {
    gchar *ids[] = {"row", NULL};
    GtkBuilder *builder = gtk_builder_new();
    GError *error = NULL;
    if (!gtk_builder_add_objects_from_file(builder, file, ids, &error)) g_error("%s: %s", file, error->message);
    char *markup = g_markup_printf_escaped("<b>%s</b>", places[i].title);
    gtk_label_set_markup(GTK_LABEL(gtk_builder_get_object(builder, "title")), markup);
    g_free(markup);
    gtk_label_set_text(GTK_LABEL(gtk_builder_get_object(builder, "subtitle")), places[i].client);
    gtk_label_set_text(GTK_LABEL(gtk_builder_get_object(builder, "distance")), places[i].distance);
    gtk_label_set_text(GTK_LABEL(gtk_builder_get_object(builder, "proximity")), places[i].proximity);
    g_signal_connect(gtk_builder_get_object(builder, "spark"), "draw", G_CALLBACK(draw_sparkline), GINT_TO_POINTER(i));
    GtkWidget *row = GTK_WIDGET(g_object_ref(gtk_builder_get_object(builder, "row")));
    g_object_unref(builder);
    return row;
}

/* The window from the "window" object of a GtkBuilder file, with rows from its "row" object. */
static GtkWidget *window_from(const char *file) {
    gchar *ids[] = {"window", NULL};
    GtkBuilder *builder = gtk_builder_new();
    GError *error = NULL;
    if (!gtk_builder_add_objects_from_file(builder, file, ids, &error)) g_error("%s: %s", file, error->message);
    GtkWidget *window = GTK_WIDGET(gtk_builder_get_object(builder, "window"));
    GtkWidget *list = GTK_WIDGET(gtk_builder_get_object(builder, "list"));
    for (int i = 0; i < (int)(sizeof places / sizeof places[0]); i++) {
        GtkWidget *row = make_row_from(file, i);
        gtk_container_add(GTK_CONTAINER(list), row);
        g_object_unref(row);
    }
    g_object_unref(builder);
    return window;
}

int main(int argc, char **argv) {
    gboolean stay = FALSE;
    const char *builder_file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--stay") == 0) stay = TRUE;
        else if (strcmp(argv[i], "--builder") == 0 && i + 1 < argc) builder_file = argv[++i];
        else if (strcmp(argv[i], "--pull") == 0 && i + 1 < argc) pull_url = argv[++i];
    }
#ifndef CWINDOW_CURL
    if (pull_url) {
        fprintf(stderr, "cwindow: --pull needs a build with -DCWINDOW_CURL\n");
        return 2;
    }
#endif
    gtk_init(&argc, &argv);
    if (builder_file) {
        GtkWidget *window = window_from(builder_file);
        g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);
        if (!stay) g_signal_connect(window, "draw", G_CALLBACK(first_draw), NULL);
        gtk_widget_show_all(window);
        gtk_main();
        return 0;
    }

    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_title(GTK_WINDOW(window), "Faro (C reference)");
    gtk_window_set_default_size(GTK_WINDOW(window), 440, 620);
    g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);

    GtkWidget *header = gtk_header_bar_new();
    gtk_header_bar_set_show_close_button(GTK_HEADER_BAR(header), TRUE);
    gtk_header_bar_set_title(GTK_HEADER_BAR(header), "Beacons");
    GtkWidget *menu = gtk_menu_button_new();
    gtk_button_set_image(GTK_BUTTON(menu), gtk_image_new_from_icon_name("open-menu-symbolic", GTK_ICON_SIZE_BUTTON));
    gtk_header_bar_pack_end(GTK_HEADER_BAR(header), menu);
    gtk_window_set_titlebar(GTK_WINDOW(window), header);

    GtkWidget *list = gtk_list_box_new();
    gtk_list_box_set_selection_mode(GTK_LIST_BOX(list), GTK_SELECTION_SINGLE);
    for (int i = 0; i < (int)(sizeof places / sizeof places[0]); i++)
        gtk_container_add(GTK_CONTAINER(list), make_row(i));
    GtkWidget *scrolled = gtk_scrolled_window_new(NULL, NULL);
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_container_add(GTK_CONTAINER(scrolled), list);
    gtk_container_add(GTK_CONTAINER(window), scrolled);

    if (!stay) g_signal_connect(window, "draw", G_CALLBACK(first_draw), NULL);
#ifdef CWINDOW_CURL
    if (stay && pull_url) g_timeout_add(1000, pull_once, NULL);
#endif
    gtk_widget_show_all(window);
    gtk_main();
    return 0;
}
