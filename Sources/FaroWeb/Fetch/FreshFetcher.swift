import FaroCore
import FaroCurl
import FoundationEssentials

/// Loads content the way the content view must (docs/content-view.md): from the network only, with
/// `Cache-Control: no-cache` and `Pragma: no-cache`, a fresh cookie store for every load, no disk cache, redirects
/// followed (within `RedirectRule`) up to a limit, certificates verified, timeouts, progress reports and
/// cancellation.
public struct FreshFetcher: Sendable {
    public var options: FetchOptions

    public init(options: FetchOptions = .standard) { self.options = options }

    /// Fetches `url` on the calling thread (blocking). `progress` is called from the same thread with bytes
    /// received and the total when known; setting `cancellation` stops the transfer within one callback period.
    public func fetch(
        _ url: String, cancellation: FetchCancellation? = nil,
        progress: (@Sendable (Int64, Int64?) -> Void)? = nil
    ) throws(FetchError) -> FetchResponse {
        var isCancelled: (@Sendable () -> Bool)?
        if let cancellation { isCancelled = { cancellation.isCancelled } }
        let observer = CurlObserver(progress: progress, isCancelled: isCancelled)
        let transfer = try CurlTransfer(url: url, options: options, observer: observer)
        let clock = ContinuousClock()
        let started = clock.now
        while true {
            switch transfer.step(transfer.handle.perform()) {
            case .again: continue
            case .done(let result):
                var response = try result.get()
                response.performDuration = clock.now - started
                return response
            }
        }
    }

    /// Starts fetching `url` on a thread of its own and calls `completion` there when done (the GUI hops back to
    /// GTK with `g_idle_add`). Cancel through the returned task when the user moves on.
    @discardableResult
    public func start(
        _ url: String, progress: (@Sendable (Int64, Int64?) -> Void)? = nil,
        completion: @escaping @Sendable (Result<FetchResponse, FetchError>) -> Void
    ) -> FetchTask {
        let task = FetchTask()
        let fetcher = self
        DetachedThread.start(name: "faro-fetch") {
            do throws(FetchError) {
                completion(.success(try fetcher.fetch(url, cancellation: task.cancellation, progress: progress)))
            } catch {
                completion(.failure(error))
            }
        }
        return task
    }
}

/// A load running on its own thread; `cancel()` when the user moves on.
public final class FetchTask: Sendable {
    let cancellation = FetchCancellation()

    public func cancel() { cancellation.cancel() }
}
