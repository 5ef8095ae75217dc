internal import CSoup
import FaroCore
internal import FaroGLib
import FoundationEssentials

/// The fault dice: which requests fail, wait or lose their connection.
struct FaultInjector {
    var failRate: Double
    var failStatuses: [Int]
    var latency: ClosedRange<Double>
    var dropRate: Double
    var random: SplitMix64

    mutating func failure() -> Int? {
        guard failRate > 0, random.nextUnit() < failRate, !failStatuses.isEmpty else { return nil }
        return failStatuses[Int(random.next() % UInt64(failStatuses.count))]
    }

    mutating func delayMilliseconds() -> Double {
        guard latency.upperBound > 0 else { return 0 }
        return latency.lowerBound + random.nextUnit() * (latency.upperBound - latency.lowerBound)
    }

    mutating func drop() -> Bool { dropRate > 0 && random.nextUnit() < dropRate }
}

/// A request body as it arrives, collected by the server itself (libsoup's own buffer is switched off) so that it
/// can stop at `Routes.maxBodyBytes` instead of holding whatever a client sends. Owned by its message (GObject data).
final class RequestBody {
    static let key = "faro-request-body"
    let limit: Int
    var bytes: [UInt8] = []
    /// Set once the body was refused as too large: nothing of it reaches the routes.
    var refused = false

    init(limit: Int) { self.limit = limit }
}

/// faro-backend's HTTP side: a SoupServer on 127.0.0.1 driven by the GLib main loop of the main thread. It turns
/// each SoupServerMessage into an `HTTPRequest`, asks `Routes`, applies the injected faults, and writes the reply.
/// Request bodies are refused with 413 as soon as they are known to be too large: on a `Content-Length` over the
/// limit before a byte of the body is read, and for a body without one (chunked) as soon as it passes the limit;
/// then the connection is closed, so the rest is never read.
final class SoupHTTPServer {
    private let server: UnsafeMutablePointer<SoupServer>
    private let routes: Routes
    private var faults: FaultInjector
    private(set) var port: UInt32 = 0

    /// Why the server could not start.
    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    init(routes: Routes, faults: FaultInjector) throws(StartError) {
        // soup_server_new is variadic (GObject properties); a server with default properties is the same object.
        guard let object = g_object_new_with_properties(soup_server_get_type(), 0, nil, nil) else {
            throw StartError(description: "cannot create the HTTP server")
        }
        self.server = UnsafeMutableRawPointer(object).assumingMemoryBound(to: SoupServer.self)
        self.routes = routes
        self.faults = faults
        // Both handlers are boxed closures owned by the SoupServer (released by GLib with it); they hold the
        // server weakly, since the SoupServer is the server's own.
        typealias Handler = GLibClosure<(OpaquePointer, UnsafePointer<CChar>), Void>
        let callback: SoupServerCallback = { _, message, path, _, data in
            guard let message, let path, let data else { return }
            Handler.call(data, (message, path))
        }
        soup_server_add_handler(
            server, nil, callback,
            Handler.retained { [weak self] message, path in self?.handle(message, path: String(cString: path)) },
            Handler.destroyNotify)
        // Early handlers run once the headers are read, before the body.
        soup_server_add_early_handler(
            server, nil, callback, Handler.retained { [weak self] message, _ in self?.headersArrived(message) },
            Handler.destroyNotify)
    }

    /// Sets up the body collection of a request whose headers just arrived, or refuses it by its `Content-Length`.
    private func headersArrived(_ message: OpaquePointer) {
        let collector = RequestBody(limit: Routes.maxBodyBytes)
        GObjectData.attach(collector, to: UnsafeMutableRawPointer(message), key: RequestBody.key)
        if let body = soup_server_message_get_request_body(message) { soup_message_body_set_accumulate(body, 0) }
        let headers = soup_server_message_get_request_headers(message)
        if soup_message_headers_get_encoding(headers) == SOUP_ENCODING_CONTENT_LENGTH,
            soup_message_headers_get_content_length(headers) > Int64(collector.limit)
        {
            // A client waiting for "100 Continue" gets the 413 instead and sends nothing; any other is cut off.
            let waiting = soup_message_headers_get_expectations(headers).rawValue & SOUP_EXPECTATION_CONTINUE.rawValue
            refuse(message, collector, cutOff: waiting == 0)
            return
        }
        // "got-chunk" (SoupServerMessage *, GBytes *chunk): the handler dies with the message.
        GObjectSignal.connect(
            UnsafeMutableRawPointer(message), "got-chunk",
            pointer: { [weak self] bytes in
                guard let bytes else { return }
                self?.bodyArrived(message, OpaquePointer(bytes))
            })
    }

    private static func body(of message: OpaquePointer) -> RequestBody? {
        GObjectData.value(on: UnsafeMutableRawPointer(message), key: RequestBody.key, as: RequestBody.self)
    }

    /// One piece of a request body: kept while the body stays within the limit, else the request is refused.
    private func bodyArrived(_ message: OpaquePointer, _ bytes: OpaquePointer) {
        guard let collector = SoupHTTPServer.body(of: message), !collector.refused else { return }
        var size: Int = 0
        guard let data = g_bytes_get_data(bytes, &size), size > 0 else { return }
        guard collector.bytes.count + size <= collector.limit else {
            refuse(message, collector, cutOff: true)
            return
        }
        collector.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size))
    }

    /// Answers 413. With `cutOff`, the answer is written straight to the socket and the connection shut, so no more
    /// of the body is read; otherwise libsoup sends it (to a client that has not started sending the body).
    private func refuse(_ message: OpaquePointer, _ collector: RequestBody, cutOff: Bool) {
        collector.refused = true
        collector.bytes = []
        let reply = HTTPReply.error(413, "The request body is too large (the limit is \(collector.limit) bytes).")
        guard cutOff, let socket = soup_server_message_get_socket(message) else {
            soup_message_headers_replace(soup_server_message_get_response_headers(message), "Connection", "close")
            finish(message, reply, drop: false)
            return
        }
        let head =
            "HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\nContent-Length: \(reply.body.count)\r\n"
            + "Connection: close\r\n\r\n"
        let bytes = Array(head.utf8) + reply.body
        _ = bytes.withUnsafeBytes { raw in
            g_socket_send(socket, raw.baseAddress?.assumingMemoryBound(to: gchar.self), gsize(raw.count), nil, nil)
        }
        g_socket_shutdown(socket, 1, 1, nil)
        soup_server_message_set_status(message, 413, nil)
    }

    /// Starts listening on 127.0.0.1:`port` (0 = any free port) and returns the port in use.
    func listen(port requested: UInt32) throws(StartError) -> UInt32 {
        var error: UnsafeMutablePointer<GError>?
        guard soup_server_listen_local(server, requested, SOUP_SERVER_LISTEN_IPV4_ONLY, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw StartError(description: "cannot listen on 127.0.0.1:\(requested): \(message)")
        }
        ListenBacklog.widen(server)
        var list = soup_server_get_uris(server)
        var found: UInt32 = requested
        while let node = list {
            if let data = node.pointee.data {
                let uri = OpaquePointer(data)
                found = UInt32(max(0, g_uri_get_port(uri)))
                g_uri_unref(uri)
            }
            list = node.pointee.next
        }
        port = found
        routes.baseURL = "http://127.0.0.1:\(found)"
        return found
    }

    /// Stops accepting connections (and closes open ones) until `resume()`: the "connection refused" fault. Says so
    /// on stdout once connections are refused, so a test can wait for it instead of sleeping.
    func suspend() {
        soup_server_disconnect(server)
        StandardStreams.writeOutput("refusing connections\n")
    }

    /// Listens again on the same port after `suspend()`, and says so on stdout once it accepts connections.
    func resume() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let ok = soup_server_listen_local(server, port, SOUP_SERVER_LISTEN_IPV4_ONLY, &error) != 0
        g_clear_error(&error)
        if ok {
            ListenBacklog.widen(server)
            StandardStreams.writeOutput("listening again on http://127.0.0.1:\(port)\n")
        }
        return ok
    }

    private func handle(_ message: OpaquePointer, path: String) {
        let method = String(cString: soup_server_message_get_method(message))
        let uri = soup_server_message_get_uri(message)
        let rawQuery = g_uri_get_query(uri).map { String(cString: $0) }
        let headers = soup_server_message_get_request_headers(message)
        let collected = SoupHTTPServer.body(of: message)
        if collected?.refused == true { return }  // already answered 413
        let body = collected?.bytes ?? []
        let segments = path.split(separator: "/").map { QueryString.decode(String($0), plusIsSpace: false) }
        let request = HTTPRequest(
            method: method, segments: segments, rawQuery: rawQuery, query: QueryString.parse(rawQuery),
            header: { name in soup_message_headers_get_one(headers, name).map { String(cString: $0) } }, body: body)

        let faulty = routes.isTablesRequest(request)
        var reply: HTTPReply
        var drop = false
        if faulty, let status = faults.failure() {
            reply = .error(
                status, status == 503 ? "Service unavailable (injected fault)" : "Internal error (injected fault)")
        } else {
            reply = routes.handle(request)
            drop = faulty && method == "POST" && faults.drop()
        }
        if method == "HEAD" { reply.body = [] }
        let delay = faulty ? faults.delayMilliseconds() : routes.inspection.delayMilliseconds(request)
        if delay >= 1 {
            // The reply waits out its latency in a one-shot timer, which keeps the paused message alive.
            soup_server_message_pause(message)
            g_object_ref(UnsafeMutableRawPointer(message))
            MainContextSources.addTimeout(milliseconds: UInt32(delay)) { [reply, drop] in
                self.finish(message, reply, drop: drop)
                soup_server_message_unpause(message)
                g_object_unref(UnsafeMutableRawPointer(message))
                return false
            }
        } else {
            finish(message, reply, drop: drop)
        }
    }

    /// Writes `reply`, or (for the dropped-connection fault) the first bytes of it and then cuts the connection.
    private func finish(_ message: OpaquePointer, _ reply: HTTPReply, drop: Bool) {
        if drop, let socket = soup_server_message_get_socket(message) {
            let partial =
                "HTTP/1.1 \(reply.status) X\r\nContent-Type: application/json\r\nContent-Length: \(reply.body.count + 100)\r\n\r\n"
            let bytes = Array(partial.utf8) + Array(reply.body.prefix(reply.body.count / 2))
            _ = bytes.withUnsafeBytes { raw in
                g_socket_send(socket, raw.baseAddress?.assumingMemoryBound(to: gchar.self), gsize(raw.count), nil, nil)
            }
            g_socket_shutdown(socket, 1, 1, nil)
            soup_server_message_set_status(message, 500, nil)
            return
        }
        soup_server_message_set_status(message, guint(reply.status), nil)
        let responseHeaders = soup_server_message_get_response_headers(message)
        for (name, value) in reply.headers { soup_message_headers_replace(responseHeaders, name, value) }
        reply.body.withUnsafeBytes { raw in
            soup_server_message_set_response(
                message, reply.contentType ?? "application/octet-stream", SOUP_MEMORY_COPY,
                raw.baseAddress?.assumingMemoryBound(to: CChar.self), gsize(raw.count))
        }
    }
}
