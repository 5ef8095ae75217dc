internal import CGio

/// A Swift closure lent to GLib as user data: retained when handed over and released by GLib's destroy notify
/// (`GDestroyNotify` or `GClosureNotify`) when the source, handler or subscription goes away, so GLib owns the box
/// for exactly as long as it may call it. Every GLib callback in Faro goes through one of these: FaroGLib's own
/// wrappers, and the few C APIs of the GLib family that FaroGLib does not wrap (libsoup's server handlers), which
/// pass `retained` as user data and `destroyNotify` as its `GDestroyNotify`.
public final class GLibClosure<Argument, Result> {
    let body: (Argument) -> Result

    init(_ body: @escaping (Argument) -> Result) { self.body = body }

    /// Hands a new box to GLib: the pointer to pass as user data, released by `destroyNotify` (or, for a one-shot
    /// callback without a destroy notify, by `callOnce`).
    public static func retained(_ body: @escaping (Argument) -> Result) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(GLibClosure(body)).toOpaque()
    }

    /// Calls the box behind a user-data pointer, without changing who owns it.
    public static func call(_ data: UnsafeMutableRawPointer, _ argument: Argument) -> Result {
        Unmanaged<GLibClosure>.fromOpaque(data).takeUnretainedValue().body(argument)
    }

    /// Calls the box once and releases it (one-shot GAsyncReadyCallbacks, which have no destroy notify).
    public static func callOnce(_ data: UnsafeMutableRawPointer, _ argument: Argument) -> Result {
        Unmanaged<GLibClosure>.fromOpaque(data).takeRetainedValue().body(argument)
    }

    /// The `GDestroyNotify` that releases a box made by `retained`.
    public static var destroyNotify: @convention(c) (UnsafeMutableRawPointer?) -> Void { releaseClosure }
}

/// GLib's `GDestroyNotify` for any `GLibClosure` box.
let releaseClosure: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

/// GLib's `GClosureNotify` (signal handlers) for any `GLibClosure` box.
let releaseSignalClosure: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}
