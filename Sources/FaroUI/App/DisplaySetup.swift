internal import CGtk
import FaroGLib
import Glibc

/// What Faro asks of the display before GTK opens it: no OpenGL, since nothing in Faro draws with it.
///
/// On X11, the first GTK 3 process on a display probes GLX while it opens the display, to choose the visuals
/// that suit OpenGL, and caches its choice on the root window (the `GDK_VISUALS` property); later GTK 3
/// processes read the cache and never touch GLX. The probe loads Mesa's driver, and with it libLLVM: where no GPU
/// driver answers (Xvfb, llvmpipe), about 44 MB of libLLVM and 4 MB of `swrast_dri.so` stay resident for the
/// life of the process. Faro, started with `--background` by the autostart entry at login, is often that first
/// process, and then lived at ~105 MB where it needs ~50 MB (measured: `bench/memory-steady/run.sh`, and with
/// `GDK_GL=disable` under the same conditions). Faro has no GL drawing (no GtkGLArea, no GL-backed views), so it
/// asks GDK not to initialise GL at all, through GTK 3's only switch for it, the `GDK_GL` environment variable.
/// GTK reads the variable once, while `startup` initialises it; the variable is removed again right after, so the
/// browser or anything else Faro launches inherits the user's environment unchanged. A `GDK_GL` the user set is
/// left alone (an empty one counts as unset).
@MainActor
enum DisplaySetup {
    /// Call once, after `gtk_application_new` and before the application registers or runs (GTK opens the
    /// display in its `startup`, which registration emits).
    static func prepare(_ application: UnsafeMutablePointer<GtkApplication>?) {
        if let set = getenv("GDK_GL"), set.pointee != 0 { return }
        setenv("GDK_GL", "disable", 0)
        // GTK's own startup handler (it opens the display) runs before any connected handler.
        Signal.connect(application, "startup") {
            // glibc's unsetenv keeps the strings other threads may be reading; this runs once, early.
            unsetenv("GDK_GL")
        }
    }
}
