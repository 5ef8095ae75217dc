import FaroTestSupport
import Foundation
import Testing

@testable import FaroCurl

/// FaroCurl's own behaviour against real loopback peers (`LoopbackPeer`, and `HTTPSPeer` for trust): what a handle
/// sends, what it reads back, the limits and errors it reports, cancellation, and the options it is made with.
@Suite("FaroCurl handles", .serialized)
struct CurlHandleTests {
    static func settings(
        totalTimeout: Double = 20, privateCookies: Bool = false, acceptCompressed: Bool = false,
        trust: CurlTrust = CurlTrust()
    ) -> CurlSettings {
        CurlSettings(
            connectTimeout: 10, totalTimeout: totalTimeout, userAgent: "FaroCurlTests/1",
            privateCookies: privateCookies,
            acceptCompressed: acceptCompressed, trust: trust)
    }

    static func text(_ result: Result<CurlResponse, CurlError>) throws -> String {
        String(decoding: try result.get().body, as: UTF8.self)
    }

    @Test func aGetSendsTheUserAgentAndItsHeaderLinesAndReadsTheAnswersHeaders() throws {
        let peer = try LoopbackPeer()
        let handle = try CurlHandle(Self.settings())
        let echo = try Self.text(
            handle.perform(CurlRequest(url: peer.base + "/echo", headers: ["X-Pregunta: hola"], maxBytes: 1 << 16)))
        let lines = echo.split(separator: "\n").map(String.init)
        #expect(lines.first == "GET")
        #expect(lines.contains("User-Agent: FaroCurlTests/1"))
        #expect(lines.contains("X-Pregunta: hola"))
        let answer = try handle.perform(CurlRequest(url: peer.base + "/headers", maxBytes: 1 << 16)).get()
        #expect(answer.status == 200 && answer.body == Array("ok".utf8))
        #expect(answer.url == peer.base + "/headers")
        #expect(answer.contentType == "text/plain")
        // Names as sent, a repeated header kept twice, and looked up case-insensitively with the last one winning.
        #expect(answer.headers.filter { $0.name == "X-Faro" }.map(\.value) == ["uno", "dos"])
        #expect(answer.headers.contains(HTTPHeader(name: "x-FARO-Caso", value: "Mixto")))
        #expect(answer.header("x-faro") == "dos" && answer.header("X-FARO-CASO") == "Mixto")
        #expect(answer.redirectURL == nil)
    }

    @Test func aPostSendsItsBytesAndTheNextRequestIsAPlainGetOnTheSameConnection() throws {
        let peer = try LoopbackPeer()
        let handle = try CurlHandle(Self.settings())
        let body = Array(#"{"id":"a","calificacion":4}"#.utf8) + [0, 0xFF]
        let posted = try handle.perform(
            CurlRequest(
                url: peer.base + "/echo", headers: ["Content-Type: application/json", "X-Una-Vez: 1"], body: body,
                maxBytes: 1 << 16)
        ).get()
        let text = posted.body
        #expect(text.starts(with: Array("POST\n".utf8)))
        #expect(String(decoding: text, as: UTF8.self).contains("Content-Length: \(body.count)"))
        #expect(Array(text.suffix(body.count + 5)) == Array("BODY:".utf8) + body)
        #expect(posted.newConnections == 1)
        // The handle forgets the last request's method, body and header lines, and keeps its connection.
        let next = try handle.perform(CurlRequest(url: peer.base + "/echo", maxBytes: 1 << 16)).get()
        let lines = String(decoding: next.body, as: UTF8.self).split(separator: "\n")
        #expect(lines.first == "GET")
        #expect(!lines.contains { $0.hasPrefix("X-Una-Vez") || $0.hasPrefix("Content-Type") })
        #expect(lines.last == "BODY:")
        #expect(next.newConnections == 0)
        #expect(peer.requests(count: 2) == ["POST /echo", "GET /echo"])
    }

    @Test func redirectsComeBackToTheCallerUnfollowed() throws {
        let peer = try LoopbackPeer()
        let handle = try CurlHandle(Self.settings())
        let moved = try handle.perform(CurlRequest(url: peer.base + "/redirect", maxBytes: 1 << 16)).get()
        #expect(moved.status == 302 && moved.redirectURL == peer.base + "/echo")
        let ftp = try handle.perform(CurlRequest(url: peer.base + "/to-ftp", maxBytes: 1 << 16)).get()
        #expect(ftp.status == 302 && ftp.redirectURL == "ftp://127.0.0.1/file")
        #expect(
            handle.perform(CurlRequest(url: "ftp://127.0.0.1/file", maxBytes: 10)) == .failure(.unsupportedProtocol))
        #expect(peer.requests(count: 2) == ["GET /redirect", "GET /to-ftp"])
    }

    @Test func anAnswerLargerThanTheLimitIsStoppedWithOrWithoutALength() throws {
        let peer = try LoopbackPeer()
        let handle = try CurlHandle(Self.settings())
        #expect(
            try handle.perform(CurlRequest(url: peer.base + "/bytes/1000", maxBytes: 1000)).get().body.count == 1000)
        #expect(
            handle.perform(CurlRequest(url: peer.base + "/bytes/5000", maxBytes: 1000))
                == .failure(.tooLarge(limit: 1000)))
        #expect(
            handle.perform(CurlRequest(url: peer.base + "/chunked/5000", maxBytes: 1000))
                == .failure(.tooLarge(limit: 1000)))
        // The handle is usable after a stopped transfer.
        #expect(
            try handle.perform(CurlRequest(url: peer.base + "/chunked/2600", maxBytes: 4000)).get().body.count == 2600)
    }

    @Test func transportErrorsAreTold() throws {
        let handle = try CurlHandle(Self.settings(totalTimeout: 1))
        #expect(
            handle.perform(CurlRequest(url: "http://127.0.0.1:99999/", maxBytes: 10)) == .failure(.malformedURL))
        guard
            case .failure(.transport(let detail)) = handle.perform(
                CurlRequest(url: "http://127.0.0.1:1/", maxBytes: 10))
        else {
            Issue.record("a refused connection was not a transport error")
            return
        }
        #expect(!detail.isEmpty)
        let peer = try LoopbackPeer()
        #expect(handle.perform(CurlRequest(url: peer.base + "/slow", maxBytes: 1 << 20)) == .failure(.timedOut))
    }

    @Test func aTransferReportsProgressAndStopsWhenCancelled() throws {
        let peer = try LoopbackPeer()
        let handle = try CurlHandle(Self.settings())
        let seen = Locked<[(Int64, Int64?)]>([])
        let observer = CurlObserver(
            progress: { now, total in seen.set(seen.get() + [(now, total)]) },
            isCancelled: { seen.get().contains { $0.0 >= 2000 } })
        let result = handle.perform(CurlRequest(url: peer.base + "/slow", maxBytes: 1 << 20), observer: observer)
        #expect(result == .failure(.cancelled))
        let progress = seen.get()
        #expect(progress.contains { $0.0 >= 2000 && $0.1 == 100_000 })
        #expect(progress.allSatisfy { $0.0 < 100_000 })
    }

    @Test func cookiesLiveInTheirHandleOnly() throws {
        let peer = try LoopbackPeer()
        let first = try CurlHandle(Self.settings(privateCookies: true))
        _ = try first.perform(CurlRequest(url: peer.base + "/set-cookie", maxBytes: 1 << 16)).get()
        #expect(
            try Self.text(first.perform(CurlRequest(url: peer.base + "/echo", maxBytes: 1 << 16))).contains(
                "Cookie: faro=galleta"))
        let second = try CurlHandle(Self.settings(privateCookies: true))
        #expect(
            try !Self.text(second.perform(CurlRequest(url: peer.base + "/echo", maxBytes: 1 << 16))).contains("Cookie"))
        let plain = try CurlHandle(Self.settings())
        _ = try plain.perform(CurlRequest(url: peer.base + "/set-cookie", maxBytes: 1 << 16)).get()
        #expect(
            try !Self.text(plain.perform(CurlRequest(url: peer.base + "/echo", maxBytes: 1 << 16))).contains("Cookie"))
    }

    @Test func compressedAnswersAreAskedForAndDecodedOnlyWhenSet() throws {
        let peer = try LoopbackPeer()
        let expected = String(repeating: "comprimido ", count: 200)
        let decoding = try CurlHandle(Self.settings(acceptCompressed: true))
        let decoded = try decoding.perform(CurlRequest(url: peer.base + "/gzip", maxBytes: 1 << 16)).get()
        #expect(String(decoding: decoded.body, as: UTF8.self) == expected)
        #expect(decoded.header("Content-Encoding") == "gzip")
        let plain = try CurlHandle(Self.settings())
        #expect(try Self.text(plain.perform(CurlRequest(url: peer.base + "/gzip", maxBytes: 1 << 16))) == expected)
        #expect(
            try plain.perform(CurlRequest(url: peer.base + "/gzip", maxBytes: 1 << 16)).get().header("Content-Encoding")
                == nil)
    }

    @Test func aMultiHandleRunsSeveralTransfersAtOnce() throws {
        let peer = try LoopbackPeer()
        let multi = try CurlMulti()
        var handles: [CurlHandle] = []
        for n in [100, 2000, 30000] {
            let handle = try CurlHandle(Self.settings())
            try handle.prepare(CurlRequest(url: peer.base + "/bytes/\(n)", maxBytes: 1 << 16))
            #expect(multi.add(handle))
            handles.append(handle)
        }
        #expect(multi.count == 3)
        var sizes: [String: Int] = [:]
        let deadline = Date().addingTimeInterval(20)
        while multi.count > 0, Date() < deadline {
            let (ok, finished) = multi.perform()
            #expect(ok)
            for (handle, result) in finished { sizes[handle.url] = (try? result.get())?.body.count ?? -1 }
            if multi.count > 0 { multi.wait(milliseconds: 100) }
        }
        #expect(
            sizes == [
                peer.base + "/bytes/100": 100, peer.base + "/bytes/2000": 2000, peer.base + "/bytes/30000": 30000,
            ])
    }

    @Test(.enabled(if: RequiredTool.openssl.shouldRun, Comment(rawValue: RequiredTool.openssl.reason)))
    func onlyTheNamedBundleIsTrustedAndTheHostNameIsChecked() throws {
        let peer = try HTTPSPeer()
        let untrusting = try CurlHandle(Self.settings())
        guard
            case .failure(.untrustedCertificate) = untrusting.perform(
                CurlRequest(url: peer.httpsBase + "/x", maxBytes: 1 << 16))
        else {
            Issue.record("a certificate nobody trusts was accepted")
            return
        }
        let trusting = try CurlHandle(Self.settings(trust: CurlTrust(caBundle: peer.caBundle)))
        #expect(try trusting.perform(CurlRequest(url: peer.httpsBase + "/x", maxBytes: 1 << 16)).get().status == 200)
        guard
            case .failure(.untrustedCertificate) = trusting.perform(
                CurlRequest(url: peer.wrongNameBase + "/x", maxBytes: 1 << 16))
        else {
            Issue.record("a certificate for 127.0.0.1 was accepted for localhost")
            return
        }
        #expect(settled(1) { peer.requests } == ["https GET /x"])
        // A bundle that does not exist trusts nothing (the system's store is not used instead).
        let missing = try CurlHandle(Self.settings(trust: CurlTrust(caBundle: peer.caBundle + ".missing")))
        guard case .failure(let error) = missing.perform(CurlRequest(url: peer.httpsBase + "/x", maxBytes: 1 << 16))
        else {
            Issue.record("a missing bundle trusted the peer")
            return
        }
        #expect(error != .timedOut, "\(error)")
    }

    @Test func aProtectionLibcurlRefusesMeansNoHandle() {
        var settings = Self.settings()
        settings.protocols = "http,no-such-protocol"
        do {
            _ = try CurlHandle(settings)
            Issue.record("a handle was made without its protections")
        } catch {
            #expect(error.description.contains("CURLOPT_PROTOCOLS_STR"))
            guard case .unprotected(let option, _) = error else {
                Issue.record("expected a refused protection, got \(error)")
                return
            }
            #expect(option == "CURLOPT_PROTOCOLS_STR")
        }
    }
}
