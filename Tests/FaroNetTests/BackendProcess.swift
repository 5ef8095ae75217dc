import FaroCore
import FaroNet
import FaroTestSupport
import Foundation
import Testing

extension BackendProcess {
    func configuration() throws -> BackendConfiguration { try BackendConfiguration(baseURL: url) }
}

/// A tiny HTTP server on loopback that answers every request with one canned response, or each by its request line
/// (for bad-input tests that faro-backend does not produce: wrong content types, huge bodies, redirects, misleading
/// pages). It keeps the request lines it answered.
final class CannedServer: @unchecked Sendable {
    let port: Int
    private let socket: Int32
    private let thread: Thread
    private let log = Locked<[String]>([])

    /// The request lines answered so far (`GET /tables/… HTTP/1.1`), in order.
    var requests: [String] { log.get() }

    convenience init(response: [UInt8]) throws {
        try self.init(responding: { _ in response })
    }

    /// A server whose one response is made once its port is known (for answers that name their own address).
    convenience init(responding make: (Int) -> [UInt8]) throws {
        let reply = Locked<[UInt8]>([])
        try self.init(answering: { _, _ in reply.get() })
        reply.set(make(port))  // before any request: nothing connects until the port is known
    }

    /// A server that answers each request by its request line (and its own port).
    init(answering answer: @escaping @Sendable (Int, String) -> [UInt8]) throws {
        let fd = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BackendProcess.StartFailure(description: "socket failed") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else { throw BackendProcess.StartFailure(description: "bind failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        self.port = port
        socket = fd
        let log = self.log
        thread = Thread {
            // The thread closes the listening socket itself: closed in deinit, its number could be reused by the
            // next test's server while this thread still answers (a 6 MB reply can outlive the test).
            defer { close(fd) }
            for _ in 0..<64 {  // bounded: a test makes a handful of requests
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = read(client, &buffer, buffer.count)
                let line =
                    String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
                    .split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
                log.set(log.get() + [line])
                let reply = answer(port, line)
                _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(client)
            }
        }
        thread.start()
    }

    var url: String { "http://127.0.0.1:\(port)" }

    deinit {
        shutdown(socket, Int32(SHUT_RDWR))
    }

    static func http(status: String, headers: [String], body: [UInt8]) -> [UInt8] {
        let head =
            (["HTTP/1.1 \(status)", "Content-Length: \(body.count)", "Connection: close"] + headers)
            .joined(separator: "\r\n") + "\r\n\r\n"
        return Array(head.utf8) + body
    }
}

extension BackendProcess {
    /// A faro-backend speaking tables protocol `generation` (2 or 3).
    convenience init(generation: Int, _ arguments: [String] = []) throws {
        try self.init(arguments + ["--protocol", String(generation)])
    }

    /// The configuration of a client that speaks `generation` (the `backend-protocol` setting set to it).
    func configuration(generation: Int) throws -> BackendConfiguration {
        var configuration = try configuration()
        configuration.backendProtocol = .fixed(try #require(BackendProtocol(rawValue: generation)))
        return configuration
    }
}
