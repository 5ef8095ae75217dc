internal import CCurl

/// A libcurl multi handle: many `CurlHandle`s transferring at once on the calling thread (the resources of a page).
/// Each handle keeps the protections it was made with; the multi handle only drives them.
public final class CurlMulti {
    private let raw: UnsafeMutableRawPointer
    private var running: [UnsafeMutableRawPointer: CurlHandle] = [:]

    public init() throws(CurlError) {
        guard CurlRuntime.initialize() else { throw .unavailable(CurlRuntime.failureReason) }
        guard let multi = curl_multi_init() else {
            throw .unavailable("curl_multi_init failed")
        }
        raw = multi
    }

    deinit {
        for easy in running.keys { curl_multi_remove_handle(raw, easy) }
        curl_multi_cleanup(raw)
    }

    /// The transfers added and not yet finished or removed.
    public var count: Int { running.count }

    /// Starts a prepared handle; false when libcurl refused it.
    public func add(_ handle: CurlHandle) -> Bool {
        guard curl_multi_add_handle(raw, handle.raw) == CURLM_OK else { return false }
        running[handle.raw] = handle
        return true
    }

    /// Stops a handle's transfer (it can be prepared and added again).
    public func remove(_ handle: CurlHandle) {
        guard running.removeValue(forKey: handle.raw) != nil else { return }
        curl_multi_remove_handle(raw, handle.raw)
    }

    /// Every running handle, for cancelling them all.
    public var handles: [CurlHandle] { Array(running.values) }

    /// Lets libcurl move every transfer forward and returns those that finished, each removed from the multi
    /// handle with its answer. False in `ok` when libcurl reported a failure of the multi handle itself.
    public func perform() -> (ok: Bool, finished: [(CurlHandle, Result<CurlResponse, CurlError>)]) {
        var stillRunning: Int32 = 0
        let ok = curl_multi_perform(raw, &stillRunning) == CURLM_OK
        var finished: [(CurlHandle, Result<CurlResponse, CurlError>)] = []
        var queued: Int32 = 0
        while let message = curl_multi_info_read(raw, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let handle = running.removeValue(forKey: easy)
            else { continue }
            let code = message.pointee.data.result
            curl_multi_remove_handle(raw, easy)
            finished.append((handle, handle.finish(CurlResult(code: code))))
        }
        return (ok, finished)
    }

    /// Waits up to `milliseconds` for any transfer to have something to do.
    public func wait(milliseconds: Int32) {
        var ready: Int32 = 0
        curl_multi_poll(raw, nil, 0, milliseconds, &ready)
    }
}
