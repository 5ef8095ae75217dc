import CCurl
import FoundationEssentials

/// Fetches many resources at once with one libcurl multi handle (the images and stylesheets of a page being
/// saved): every request fresh like the page itself, at most `maxConcurrent` in flight, results by URL.
public struct ResourceFetcher: Sendable {
    public var options: FetchOptions
    public var maxConcurrent: Int

    public init(options: FetchOptions = FetchOptions(totalTimeout: 20, maxBytes: 16 << 20), maxConcurrent: Int = 32) {
        self.options = options
        self.maxConcurrent = max(1, maxConcurrent)
    }

    /// Fetches every URL in `urls` (duplicates once) and returns each outcome by URL. Blocking; cancellation
    /// aborts the transfers still running (they fail with `.cancelled`).
    public func fetchAll(_ urls: [String], cancellation: FetchCancellation? = nil) -> [String: Result<
        FetchResponse, FetchError
    >] {
        var results: [String: Result<FetchResponse, FetchError>] = [:]
        var queue: [String] = []
        for url in urls where !queue.contains(url) { queue.append(url) }
        guard !queue.isEmpty else { return results }
        guard CurlRuntime.ready, let multi = curl_multi_init() else {
            for url in queue { results[url] = .failure(.network("libcurl could not be initialised")) }
            return results
        }
        defer { curl_multi_cleanup(multi) }
        var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        var next = 0

        func startMore() {
            while running.count < maxConcurrent, next < queue.count {
                let url = queue[next]
                next += 1
                do throws(FetchError) {
                    let transfer = try CurlTransfer(
                        url: url, options: options, cancellation: cancellation, progress: nil)
                    if curl_multi_add_handle(multi, transfer.handle) == CURLM_OK {
                        running[transfer.handle] = transfer
                    } else {
                        results[url] = .failure(.network("libcurl refused the transfer"))
                    }
                } catch {
                    results[url] = .failure(error)
                }
            }
        }

        startMore()
        while !running.isEmpty {
            var stillRunning: Int32 = 0
            if curl_multi_perform(multi, &stillRunning) != CURLM_OK { break }
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let transfer = running.removeValue(forKey: easy)
                else { continue }
                let code = message.pointee.data.result
                curl_multi_remove_handle(multi, easy)
                results[transfer.url] = transfer.finish(code)
            }
            startMore()
            if running.isEmpty { break }
            if cancellation?.isCancelled == true {
                for (easy, transfer) in running {
                    curl_multi_remove_handle(multi, easy)
                    results[transfer.url] = .failure(.cancelled)
                }
                running.removeAll()
                break
            }
            var ready: Int32 = 0
            curl_multi_poll(multi, nil, 0, 100, &ready)
        }
        for (easy, transfer) in running {
            curl_multi_remove_handle(multi, easy)
            results[transfer.url] = .failure(.network("the transfer stopped unexpectedly"))
        }
        return results
    }
}
