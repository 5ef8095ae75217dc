import FaroCore
import FaroTestSupport
import Foundation
import Testing

@testable import FaroNet

/// faro-backend facing hostile or careless clients: the inspection routes exist only with `--debug`, request bodies
/// are refused at the limit without being read to the end, a `$filter` cannot nest without bound, and with
/// `--debug` the accepted inserts are counted per row id.
@Suite("faro-backend hardening", .serialized)
struct BackendHardeningTests {
    /// A faro-backend started with exactly `arguments` (TestBackend always adds `--debug`).
    final class Backend {
        let backend: BackendProcess
        var base: String { backend.url }
        var port: UInt16 { UInt16(backend.port) }

        init(_ arguments: [String]) throws { backend = try BackendProcess(arguments) }

        func client() throws -> TablesClient {
            try TablesClient(configuration: try BackendConfiguration(baseURL: base))
        }
    }

    @Test func theInspectionRoutesAreOnlyThereWithDebug() throws {
        let plain = try Backend([])
        let client = try plain.client()
        _ = try FreshFetcherProbe.get(plain.base + "/sitios/cafe-la-parroquia/?imei=356938035643809")
        for path in ["/debug/requests", "/debug/inserts", "/debug/lists", "/debug/redirect?to=/sitios/"] {
            guard case .success(let response) = client.get(plain.base + path) else {
                Issue.record("\(path) did not answer")
                continue
            }
            #expect(response.status == 404, "\(path) answered \(response.status) without --debug")
            #expect(!String(decoding: response.body, as: UTF8.self).contains("356938035643809"))
        }
        let debugging = try Backend(["--debug"])
        guard case .success(let log) = try debugging.client().get(debugging.base + "/debug/requests") else {
            Issue.record("no log with --debug")
            return
        }
        #expect(log.status == 200)
    }

    @Test func acceptedInsertsAreCountedPerRowID() throws {
        let backend = try Backend(["--debug"])
        let client = try backend.client()
        #expect(DeliveryVerdict.classify(client.insert(table: "t", json: #"{"id":"a"}"#)) == .delivered)
        guard case .response(409, _) = client.insert(table: "t", json: #"{"id":"a"}"#) else {
            Issue.record("a second insert of the same id must conflict")
            return
        }
        #expect(DeliveryVerdict.classify(client.insert(table: "u", json: #"{"id":"b"}"#)) == .delivered)
        let counts = try BackendInserts.counts(backend.base)
        #expect(counts == ["t": ["a": 1], "u": ["b": 1]])
    }

    @Test func listingsAreCountedPerTable() throws {
        let backend = try Backend(["--debug"])
        let client = try backend.client()
        #expect(DeliveryVerdict.classify(client.insert(table: "t", json: #"{"id":"a"}"#)) == .delivered)
        // Two listings of t (one a page), one of u; reading one row is not a listing.
        for path in ["/tables/t", "/tables/t?$top=1", "/tables/u", "/tables/t/a"] {
            guard case .success(let response) = client.get(backend.base + path), response.status == 200 else {
                Issue.record("\(path) did not answer 200")
                continue
            }
        }
        #expect(try BackendInserts.listings(backend.base) == ["t": 2, "u": 1])
    }

    @Test func aDeclaredBodyOverTheLimitIsRefusedBeforeItIsSent() throws {
        let backend = try Backend([])
        // 10 GB declared, nothing sent, no "Expect: 100-continue": the answer must come from the headers alone.
        let answer = try RawHTTP.exchange(
            port: backend.port,
            head: "POST /tables/t HTTP/1.1\r\nHost: 127.0.0.1\r\nZUMO-API-VERSION: 2.0.0\r\n"
                + "Content-Type: application/json\r\nContent-Length: 10737418240\r\n\r\n",
            body: [])
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(200))")
        #expect(try backend.client().list(table: "t").rows.isEmpty)
    }

    @Test func aChunkedBodyIsCutOffAtTheLimit() throws {
        let backend = try Backend([])
        // Chunks past 1 MB and no final chunk: a server that reads to the end never answers.
        var chunks: [UInt8] = []
        let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10)
        for _ in 0..<48 { chunks += Array("10000\r\n".utf8) + piece + Array("\r\n".utf8) }
        let answer = try RawHTTP.exchange(
            port: backend.port,
            head: "POST /tables/t HTTP/1.1\r\nHost: 127.0.0.1\r\nZUMO-API-VERSION: 2.0.0\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
            body: chunks)
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(200))")
        // The server lives on and stored nothing.
        #expect(try backend.client().list(table: "t").rows.isEmpty)
    }

    @Test func aDeeplyNestedNotIsRefusedNotRecursedInto() throws {
        let backend = try Backend([])
        let client = try backend.client()
        // 10,000 is about what fits in a request line libsoup accepts; unchecked, it became 10,000 nested NOTs of SQL.
        let filter = String(repeating: "not ", count: 10_000) + "id eq 'x'"
        guard
            case .success(let response) = client.get(
                client.tableURL("beacons") + "?$filter=" + PercentEncoding.encodeComponent(filter))
        else {
            Issue.record("the server did not answer a deep filter")
            return
        }
        #expect(response.status == 400)
        #expect(String(decoding: response.body, as: UTF8.self).contains("nested too deeply"))
        // Parentheses and not mixed count against the same limit.
        let mixed = String(repeating: "(not ", count: 40) + "id eq 'x'" + String(repeating: ")", count: 40)
        guard
            case .success(let refused) = client.get(
                client.tableURL("beacons") + "?$filter=" + PercentEncoding.encodeComponent(mixed))
        else {
            Issue.record("no answer")
            return
        }
        #expect(refused.status == 400)
        #expect(try client.catalog(major: 100, minor: 1).count == 1)  // still serving
    }
}

/// A plain GET that only needs to reach the server (the content view's fetcher would add nothing useful here).
enum FreshFetcherProbe {
    static func get(_ url: String) throws -> Int32 {
        try ChildProcess.run("/usr/bin/curl", ["-s", "-o", "/dev/null", url], timeout: 20).status
    }
}

/// One HTTP exchange over a raw socket, for requests libcurl would never make: the head and body are sent (errors
/// ignored, as a careless client would) while another thread reads the answer until the server closes or 20 s pass.
enum RawHTTP {
    static func exchange(port: UInt16, head: String, body: [UInt8]) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw WebTestError(description: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw WebTestError(description: "connect failed")
        }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let received = Locked<[UInt8]>([])
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { break }
                received.set(received.get() + buffer[..<n])
            }
            done.signal()
        }
        let bytes = Array(head.utf8) + body
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            offset += n
        }
        _ = done.wait(timeout: .now() + 25)
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        return String(decoding: received.get(), as: UTF8.self)
    }
}
