import FaroCore
import FaroTestSupport
import Foundation
import Testing

@testable import FaroWeb

/// The content view's fetch against a real faro-backend: fresh headers, a fresh cookie store per load, the device
/// id in the URL, redirects, limits, progress and cancellation.
@Suite("Fresh fetch against faro-backend", .serialized)
struct FreshFetchTests {
    @Test func everyLoadIsFreshAndCarriesTheDeviceID() throws {
        let backend = try TestBackend()
        let url = backend.base + "/sitios/cafe-la-parroquia/"
        let loader = PageLoader()
        let first = try loader.load(url, deviceID: "356938035643809")
        let second = try loader.load(url + "?lang=es", deviceID: "a b/ñ")
        #expect(first.document.title == "Café de olla y pan dulce — Café La Parroquia")
        #expect(first.url == url)  // shown and shared without the device id
        #expect(second.url == url + "?lang=es")
        let log = try backend.requests()
        try #require(log.count == 2)
        #expect(log[0]["query"] as? String == "imei=356938035643809")
        #expect(log[1]["query"] as? String == "lang=es&imei=a%20b%2F%C3%B1")
        for entry in log {
            #expect(entry["cache-control"] as? String == "no-cache")
            #expect(entry["pragma"] as? String == "no-cache")
            // The server set a cookie on the first answer; a fresh cookie store means it never comes back.
            #expect(entry["cookie"] is NSNull)
        }
    }

    @Test func redirectsAreFollowedWithinOneLoadAndTheirCookiesDoNotOutliveIt() throws {
        let backend = try TestBackend()
        let target = "/sitios/libreria-el-pendulo/"
        let page = try PageLoader().load(
            backend.base + "/debug/redirect?to=" + PercentEncoding.encodeComponent(target), deviceID: nil)
        #expect(page.url == backend.base + target)
        #expect(page.response.status == 200)
        _ = try PageLoader().load(backend.base + target, deviceID: nil)
        let log = try backend.requests()
        try #require(log.count == 3)
        // Inside the load the redirect's cookie is kept (a working cookie engine); the next load starts empty.
        #expect((log[1]["cookie"] as? String)?.contains("faro_redirect=1") == true)
        #expect(log[2]["cookie"] is NSNull)
    }

    /// The transfer time is libcurl's own (`curl -w %{time_total}`'s clock), summed over the hops: a part of the
    /// perform's wall time, and longer with a slow hop in it.
    @Test func theTransferTimeIsLibcurlsOwnOverEveryHop() throws {
        let backend = try TestBackend(siteLatencyMilliseconds: 120)
        let target = "/sitios/libreria-el-pendulo/"
        let response = try FreshFetcher().fetch(
            backend.base + "/debug/redirect?to=" + PercentEncoding.encodeComponent(target))
        #expect(response.status == 200)
        #expect(response.transferDuration >= .milliseconds(120))
        #expect(response.transferDuration <= response.performDuration)
    }

    @Test func imagesComeWithThePageFreshToo() throws {
        let backend = try TestBackend()
        let url = backend.base + "/sitios/cafe-la-parroquia/"
        let page = try PageLoader().load(url, deviceID: "1", images: true)
        #expect(Set(page.images.keys) == [url + "logo.svg", url + "foto.png"])
        #expect(page.images[url + "foto.png"]?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
        let log = try backend.requests()
        #expect(
            log.count == 3 && log.allSatisfy { $0["cache-control"] as? String == "no-cache" && $0["cookie"] is NSNull })

        // The same on a worker thread, as the window loads pages.
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<LoadedPage, FetchError>?>(nil)
        PageLoader().start(url, deviceID: "1") { result in
            outcome.set(result)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        if case .success(let loaded)? = outcome.get() {
            #expect(loaded.images.count == 2 && loaded.document.title == page.document.title)
        } else {
            Issue.record("the threaded load failed: \(String(describing: outcome.get()))")
        }
    }

    @Test func redirectLoopsStopAtTheLimit() throws {
        let backend = try TestBackend()
        let fetcher = FreshFetcher(options: FetchOptions(maxRedirects: 3))
        #expect(throws: FetchError.tooManyRedirects(limit: 3)) {
            try fetcher.fetch(backend.base + "/debug/redirect?loop=0")
        }
        #expect(try backend.requests().count == 4)
    }

    @Test func httpErrorsAndBadURLsAreClearErrors() throws {
        let backend = try TestBackend()
        #expect(throws: FetchError.httpStatus(404, url: RedactedURL(backend.base + "/sitios/no-existe/"))) {
            try FreshFetcher().fetch(backend.base + "/sitios/no-existe/")
        }
        #expect(throws: FetchError.invalidURL("file:///etc/passwd")) { try FreshFetcher().fetch("file:///etc/passwd") }
        #expect(FetchError.httpStatus(404, url: "u").description == "the site answered HTTP 404 for u")
    }

    @Test func slowSitesTimeOut() throws {
        // The server would answer only after 10 minutes: an answer in this test can only be the client's timeout.
        let backend = try TestBackend(siteLatencyMilliseconds: 600_000)
        let fetcher = FreshFetcher(options: FetchOptions(totalTimeout: 0.5))
        #expect(throws: FetchError.timedOut(seconds: 0.5)) {
            try fetcher.fetch(backend.base + "/sitios/cafe-la-parroquia/")
        }
    }

    @Test func aLoadOnItsOwnThreadReportsProgressAndCanBeCancelled() throws {
        // The server holds its answer for 10 minutes: only the cancellation can end the load within the test.
        let backend = try TestBackend(siteLatencyMilliseconds: 600_000)
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<FetchResponse, FetchError>?>(nil)
        let task = FreshFetcher().start(backend.base + "/sitios/cafe-la-parroquia/") { result in
            outcome.set(result)
            done.signal()
        }
        // Cancelled once the request is at the server (its log has it), so it is a transfer in flight that stops.
        for _ in 0..<200 where (try? backend.requests().count) != 1 { _ = done.wait(timeout: .now() + 0.05) }
        #expect(try backend.requests().count == 1)
        task.cancel()
        #expect(done.wait(timeout: .now() + 30) == .success)
        if case .failure(let error)? = outcome.get() {
            #expect(error == .cancelled)
        } else {
            Issue.record("not cancelled")
        }

        let fast = try TestBackend()
        let reports = Locked<[Int64]>([])
        let response = try FreshFetcher().fetch(fast.base + "/sitios/cafe-la-parroquia/foto.png") { now, _ in
            reports.set(reports.get() + [now])
        }
        #expect(!reports.get().isEmpty)
        #expect(reports.get().last == Int64(response.body.count))
        #expect(response.mediaType == "image/png")
    }

    @Test func sizeCapsStopHugeResponses() throws {
        let backend = try TestBackend()
        let fetcher = FreshFetcher(options: FetchOptions(maxBytes: 100))
        #expect(throws: FetchError.tooLarge(limit: 100)) {
            try fetcher.fetch(backend.base + "/sitios/cafe-la-parroquia/")
        }
    }
}
