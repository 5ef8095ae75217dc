import FaroCore
import FaroCurl
import FoundationEssentials

/// Fetches many resources at once with one libcurl multi handle (the images and stylesheets of a page): every
/// request fresh and protected like the page itself, redirects checked hop by hop, at most `maxConcurrent` in
/// flight, every answer capped at `options.maxBytes` and all of them together at `maxTotalBytes`; results by URL.
public struct ResourceFetcher: Sendable {
    public var options: FetchOptions
    public var maxConcurrent: Int
    /// Once the resources received so far add up to more than this, the transfers still running stop (they fail
    /// with `.resourcesTooLarge`) and no more start: a page cannot make Faro hold an unbounded amount of memory.
    public var maxTotalBytes: Int

    public init(
        options: FetchOptions = FetchOptions(totalTimeout: 20, maxBytes: 16 << 20), maxConcurrent: Int = 32,
        maxTotalBytes: Int = MHTLimits.archiveMaxBytes
    ) {
        self.options = options
        self.maxConcurrent = max(1, maxConcurrent)
        self.maxTotalBytes = max(0, maxTotalBytes)
    }

    /// Fetches every URL in `urls` (duplicates once) and returns each outcome by URL. Blocking; cancellation
    /// aborts the transfers still running (they fail with `.cancelled`).
    public func fetchAll(_ urls: [String], cancellation: FetchCancellation? = nil) -> [String: Result<
        FetchResponse, FetchError
    >] {
        var results: [String: Result<FetchResponse, FetchError>] = [:]
        var queue: [String] = []
        var seen = Set<String>()
        for url in urls where seen.insert(url).inserted { queue.append(url) }
        guard !queue.isEmpty else { return results }
        let multi: CurlMulti
        do { multi = try CurlMulti() } catch {
            for url in queue { results[url] = .failure(.network(error.description)) }
            return results
        }
        let budget = ByteBudget(limit: maxTotalBytes)
        var running: [ObjectIdentifier: CurlTransfer] = [:]
        var next = 0

        func startMore() {
            while running.count < maxConcurrent, next < queue.count {
                let url = queue[next]
                next += 1
                if budget.exceeded {
                    results[url] = .failure(.resourcesTooLarge(limit: maxTotalBytes))
                    continue
                }
                let share = budget.share()
                let observer = CurlObserver(
                    progress: { received, _ in share.received(received) },
                    isCancelled: { cancellation?.isCancelled == true || budget.exceeded })
                do throws(FetchError) {
                    let transfer = try CurlTransfer(url: url, options: options, observer: observer)
                    if multi.add(transfer.handle) {
                        running[ObjectIdentifier(transfer.handle)] = transfer
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
            let (ok, finished) = multi.perform()
            if !ok { break }
            for (handle, outcome) in finished {
                guard let transfer = running[ObjectIdentifier(handle)] else { continue }
                switch transfer.step(outcome) {
                case .again where multi.add(handle):
                    continue
                case .again:
                    results[transfer.requestedURL] = .failure(.network("libcurl refused the transfer"))
                case .done(.failure(.cancelled)) where budget.exceeded && cancellation?.isCancelled != true:
                    results[transfer.requestedURL] = .failure(.resourcesTooLarge(limit: maxTotalBytes))
                case .done(let result):
                    results[transfer.requestedURL] = result
                }
                running[ObjectIdentifier(handle)] = nil
            }
            startMore()
            if running.isEmpty { break }
            if cancellation?.isCancelled == true {
                for transfer in running.values {
                    multi.remove(transfer.handle)
                    results[transfer.requestedURL] = .failure(.cancelled)
                }
                running.removeAll()
                break
            }
            multi.wait(milliseconds: 100)
        }
        for transfer in running.values {
            multi.remove(transfer.handle)
            results[transfer.requestedURL] = .failure(.network("the transfer stopped unexpectedly"))
        }
        return results
    }
}

/// The bytes all transfers of one `fetchAll` received together, against its limit. Progress callbacks and checks
/// all run on the thread that drives the multi handle; the lock only satisfies the callbacks' `Sendable` contract.
final class ByteBudget: @unchecked Sendable {
    let limit: Int
    private let lock = ConditionLock()
    private var total = 0

    init(limit: Int) { self.limit = limit }

    var exceeded: Bool {
        lock.lock()
        defer { lock.unlock() }
        return total > limit
    }

    /// One transfer's part of the total: it reports its own running count (which restarts at each redirect hop).
    func share() -> Share { Share(budget: self) }

    fileprivate func add(_ bytes: Int) {
        lock.lock()
        total += bytes
        lock.unlock()
    }

    /// What one transfer has counted so far.
    final class Share: @unchecked Sendable {
        private let budget: ByteBudget
        private var counted: Int64 = 0

        fileprivate init(budget: ByteBudget) { self.budget = budget }

        /// The transfer's hop has received `bytes` so far (fewer than counted means a new hop began).
        func received(_ bytes: Int64) {
            if bytes < counted { counted = 0 }
            budget.add(Int(bytes - counted))
            counted = bytes
        }
    }
}
