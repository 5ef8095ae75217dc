internal import CGio

/// A Swift object kept on a GObject under a key (`g_object_set_data_full`): retained when attached and released
/// by GLib when the GObject is finalized or the key is set again, so the value lives exactly as long as the object
/// it describes (a request's body collected beside its libsoup message).
public enum GObjectData {
    /// Keeps `value` on `object` under `key`, replacing (and releasing) what was there. The corresponding C
    /// function is `g_object_set_data_full`.
    public static func attach(_ value: AnyObject, to object: UnsafeMutableRawPointer, key: String) {
        g_object_set_data_full(
            object.assumingMemoryBound(to: GObject.self), key, Unmanaged.passRetained(value).toOpaque(),
            releaseClosure)
    }

    /// The value kept on `object` under `key`, if there is one of type `T`. The corresponding C function is
    /// `g_object_get_data`.
    public static func value<T: AnyObject>(on object: UnsafeMutableRawPointer, key: String, as type: T.Type) -> T? {
        guard let data = g_object_get_data(object.assumingMemoryBound(to: GObject.self), key) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as? T
    }
}
