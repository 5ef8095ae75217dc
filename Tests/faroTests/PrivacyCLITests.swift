import FaroCore
import FaroTestSupport
import Foundation
import Testing

/// `faro page` and `faro save` with a URL that carries the device id, down every error path a user can meet (an
/// untrusted or misnamed certificate, an HTTP error, a refused redirect, a refused connection, a bad address, a
/// redirect loop, a usage mistake): what they print never holds the id. And a plain-http page from another host is
/// fetched without it (through a proxy, the only way a test reaches "another host").
@Suite("The CLI never shows the device id", .serialized)
struct PrivacyCLITests {
    static let id = "356938035643809"

    /// Runs `faro ARGS…` with its data in `folder`, plus `environment`.
    static func faro(_ arguments: [String], folder: TemporaryDirectory, environment: [String: String] = [:]) throws
        -> (status: Int32, output: String, stderr: String)
    {
        let r = try ChildProcess.run(
            Paths.executable("faro"), arguments, environment: folder.xdgEnvironment.merging(environment) { $1 },
            timeout: 60)
        return (r.status, r.stdout + r.stderr, r.stderr)
    }

    @Test(.enabled(if: RequiredTool.openssl.shouldRun, Comment(rawValue: RequiredTool.openssl.reason)))
    func everyErrorPathOfPageAndSaveLeavesTheIDOut() throws {
        let peer = try HTTPSPeer()
        let backend = try TestBackend()
        let folder = try TemporaryDirectory("faro-privacy-cli")
        let trusted = peer.trustEnvironment
        let cases: [(what: String, url: String, environment: [String: String], says: String)] = [
            ("untrusted certificate", peer.httpsBase + "/page?imei=\(Self.id)", [:], "certificate"),
            ("wrong host name", peer.wrongNameBase + "/page?a=1&imei=\(Self.id)", trusted, "certificate"),
            ("HTTP error", peer.httpsBase + "/status/404?imei=\(Self.id)", trusted, "HTTP 404"),
            ("https to http", peer.httpsBase + "/to-http?imei=\(Self.id)", trusted, "insecure"),
            ("https to ftp", peer.httpsBase + "/to-ftp?imei=\(Self.id)", trusted, "not a web address"),
            ("refused connection", "https://127.0.0.1:1/sitio/?imei=\(Self.id)", [:], "could not load"),
            ("not a web address", "ftp://127.0.0.1/sitio/?imei=\(Self.id)", [:], "not a valid http"),
            ("redirect loop", backend.base + "/debug/redirect?loop=0&imei=\(Self.id)", [:], "redirected more than"),
        ]
        for command in ["page", "save"] {
            for c in cases {
                let r = try Self.faro(
                    [command, c.url, "--device-id", Self.id], folder: folder, environment: c.environment)
                #expect(r.status == 1, "\(command), \(c.what): \(r.output)")
                #expect(r.stderr.contains(c.says), "\(command), \(c.what): \(r.stderr)")
                #expect(!r.output.contains(Self.id), "\(command), \(c.what) shows the id: \(r.output)")
            }
            // A usage mistake quoting the URLs given.
            let usage = try Self.faro(
                [command, peer.httpsBase + "/a?imei=\(Self.id)", peer.httpsBase + "/b?imei=\(Self.id)"], folder: folder)
            #expect(usage.status == 2)
            #expect(usage.stderr.contains("unexpected argument") && !usage.output.contains(Self.id), "\(usage.output)")
        }
        // Only the untrusted and misnamed certificates stopped before a request; the requests that were made carried
        // the id over https only.
        #expect(peer.requests.allSatisfy { $0.hasPrefix("https ") }, "\(peer.requests)")
    }

    @Test(.enabled(if: RequiredTool.openssl.shouldRun, Comment(rawValue: RequiredTool.openssl.reason)))
    func aPlainHTTPPageFromAnotherHostIsLoadedWithoutTheID() throws {
        let peer = try HTTPSPeer()
        let folder = try TemporaryDirectory("faro-privacy-http")
        // libcurl sends plain-http requests through $http_proxy: the peer's plain server plays "shop.example".
        let proxy = ["http_proxy": peer.httpBase]
        let page = try Self.faro(
            ["page", "http://shop.example/sitio/", "--device-id", Self.id], folder: folder, environment: proxy)
        #expect(page.status == 0, "\(page.output)")
        #expect(page.output.contains("Asked for http://shop.example/sitio/"))
        #expect(page.stderr.contains("is not https: loaded without the device id"))
        let save = try Self.faro(
            ["save", "http://shop.example/otro/?imei=\(Self.id)", "--device-id", Self.id], folder: folder,
            environment: proxy)
        #expect(save.status == 0, "\(save.output)")
        #expect(!save.output.contains(Self.id))
        #expect(peer.requests == ["http GET http://shop.example/sitio/", "http GET http://shop.example/otro/"])
        // The same page over https carries it.
        let secure = try Self.faro(
            ["page", peer.httpsBase + "/page", "--device-id", Self.id], folder: folder,
            environment: peer.trustEnvironment)
        #expect(secure.status == 0, "\(secure.output)")
        #expect(peer.requests.last == "https GET /page?imei=\(Self.id)")
        #expect(!secure.output.contains(Self.id), "the page's echoed links show the id: \(secure.output)")
    }
}
