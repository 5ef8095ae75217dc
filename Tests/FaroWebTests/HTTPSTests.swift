import FaroCore
import FaroTestSupport
import Foundation
import Testing

@testable import FaroCurl
@testable import FaroNet
@testable import FaroWeb

/// Faro against a real HTTPS server (`HTTPSPeer`: Python's `ssl` with a certificate the test makes): certificates
/// and host names are verified, the test-only CA bundle is the only way to trust the test's own, redirects never go
/// from https to http or to anything but http(s), and the device id travels only over https.
@Suite("HTTPS peer", .serialized)
struct HTTPSTests {
    static let id = "356938035643809"

    /// Fetch options that trust the peer's certificate authority (what `FARO_TEST_CA_BUNDLE` does for a process).
    static func trusting(_ peer: HTTPSPeer) -> FetchOptions {
        var options = FetchOptions(totalTimeout: 20)
        options.trust = CurlTrust(caBundle: peer.caBundle)
        return options
    }

    static func untrusting() -> FetchOptions {
        var options = FetchOptions(totalTimeout: 20)
        options.trust = CurlTrust()
        return options
    }

    @Test(.enabled(if: RequiredTool.openssl.shouldRun, Comment(rawValue: RequiredTool.openssl.reason)))
    func anUntrustedCertificateIsRefused() throws {
        let peer = try HTTPSPeer()
        let fetcher = FreshFetcher(options: Self.untrusting())
        do {
            _ = try fetcher.fetch(peer.httpsBase + "/page?imei=\(Self.id)")
            Issue.record("a certificate nobody trusts was accepted")
        } catch {
            guard case .untrustedCertificate = error else {
                Issue.record("expected an untrusted certificate, got \(error)")
                return
            }
            #expect(!error.description.contains(Self.id))
        }
        #expect(peer.requests.isEmpty, "the request was sent: \(peer.requests)")
    }

    @Test(.enabled(if: RequiredTool.openssl.shouldRun, Comment(rawValue: RequiredTool.openssl.reason)))
    func aWrongHostNameIsRefusedEvenWithATrustedCertificate() throws {
        let peer = try HTTPSPeer()
        let fetcher = FreshFetcher(options: Self.trusting(peer))
        do {
            _ = try fetcher.fetch(peer.wrongNameBase + "/page?imei=\(Self.id)")
            Issue.record("a certificate for 127.0.0.1 was accepted for localhost")
        } catch {
            guard case .untrustedCertificate(let detail) = error else {
                Issue.record("expected a host name mismatch, got \(error)")
                return
            }
            #expect(detail.lowercased().contains("localhost") || detail.lowercased().contains("name"), "\(detail)")
            #expect(!error.description.contains(Self.id))
        }
        #expect(peer.requests.isEmpty, "the request was sent: \(peer.requests)")
    }

    @Test(.enabled(if: RequiredTool.openssl.shouldRun, Comment(rawValue: RequiredTool.openssl.reason)))
    func theTestOnlyBundleTrustsThePeerAndTheIDGoesOverHTTPS() throws {
        let peer = try HTTPSPeer()
        let page = try PageLoader(fetcher: FreshFetcher(options: Self.trusting(peer))).load(
            peer.httpsBase + "/page", deviceID: Self.id)
        #expect(page.document.title == "Pagina segura")
        #expect(page.sentDeviceID)
        #expect(page.url == peer.httpsBase + "/page")
        #expect(peer.requests == ["https GET /page?imei=\(Self.id)"])
        // The page echoed the id into its links and image: none of them shows it.
        let text = PlainTextRenderer.render(page.document)
        #expect(!text.contains(Self.id) && !text.contains("imei"), "\(text)")
        #expect(page.document.imageSources == [peer.httpsBase + "/pixel.png"])
    }

    @Test(.enabled(if: RequiredTool.openssl.shouldRun, Comment(rawValue: RequiredTool.openssl.reason)))
    func aRedirectFromHTTPSToHTTPIsRefused() throws {
        let peer = try HTTPSPeer()
        let fetcher = FreshFetcher(options: Self.trusting(peer))
        #expect(throws: FetchError.insecureRedirect(to: RedactedURL(peer.httpBase + "/landing"))) {
            try fetcher.fetch(peer.httpsBase + "/to-http?imei=\(Self.id)")
        }
        #expect(peer.requests == ["https GET /to-http?imei=\(Self.id)"], "the http target was asked: \(peer.requests)")
        // The same through the page loader and the resource fetcher (Guardar's images).
        #expect(throws: FetchError.self) {
            try PageLoader(fetcher: fetcher).load(peer.httpsBase + "/to-http", deviceID: nil)
        }
        let results = ResourceFetcher(options: Self.trusting(peer)).fetchAll([peer.httpsBase + "/to-http"])
        #expect(
            results[peer.httpsBase + "/to-http"]
                == .failure(.insecureRedirect(to: RedactedURL(peer.httpBase + "/landing"))))
        #expect(!peer.requests.contains { $0.hasPrefix("http ") })
    }

    @Test(.enabled(if: RequiredTool.openssl.shouldRun, Comment(rawValue: RequiredTool.openssl.reason)))
    func aRedirectToFTPIsRefused() throws {
        let peer = try HTTPSPeer()
        let fetcher = FreshFetcher(options: Self.trusting(peer))
        #expect(throws: FetchError.unsupportedRedirect(to: RedactedURL("ftp://127.0.0.1:\(peer.httpPort)/file"))) {
            try fetcher.fetch(peer.httpsBase + "/to-ftp")
        }
        let results = ResourceFetcher(options: Self.trusting(peer)).fetchAll([peer.httpsBase + "/to-ftp"])
        guard case .failure(.unsupportedRedirect)? = results[peer.httpsBase + "/to-ftp"] else {
            Issue.record("the resource fetcher followed an ftp redirect: \(String(describing: results))")
            return
        }
        // A redirect within https is followed.
        let followed = try fetcher.fetch(peer.httpsBase + "/to-page")
        #expect(followed.finalURL == peer.httpsBase + "/page" && followed.status == 200)
    }

    @Test(.enabled(if: RequiredTool.openssl.shouldRun, Comment(rawValue: RequiredTool.openssl.reason)))
    func theBackendClientVerifiesCertificatesToo() throws {
        let peer = try HTTPSPeer()
        let client = try TablesClient(configuration: try BackendConfiguration(baseURL: peer.httpsBase))
        guard case .transportFailure(let reason) = client.insert(table: "t", json: "{}") else {
            Issue.record("the backend client accepted a certificate nobody trusts")
            return
        }
        #expect(reason.lowercased().contains("certificate"), "\(reason)")
        #expect(peer.requests.isEmpty)
    }

    @Test func aProtectionLibcurlRefusesMeansNothingIsFetched() throws {
        // An old libcurl answers CURLOPT_PROTOCOLS_STR with CURLE_UNKNOWN_OPTION; a list it cannot read is refused the
        // same way. Either way no handle is made and no request leaves.
        var settings = CurlSettings(connectTimeout: 5, totalTimeout: 5, userAgent: "t")
        settings.protocols = "http,no-such-protocol"
        #expect(throws: CurlError.self) { try CurlHandle(settings) }
        do { _ = try CurlHandle(settings) } catch {
            guard case .unprotected(let option, _) = error else {
                Issue.record("expected a refused protection, got \(error)")
                return
            }
            #expect(option == "CURLOPT_PROTOCOLS_STR")
        }
        let backend = try TestBackend()
        var options = FetchOptions()
        options.protocols = "http,no-such-protocol"
        do {
            _ = try FreshFetcher(options: options).fetch(backend.base + "/sitios/cafe-la-parroquia/")
            Issue.record("fetched without its protections")
        } catch {
            guard case .unprotected = error else {
                Issue.record("expected .unprotected, got \(error)")
                return
            }
        }
        #expect(try backend.requests().isEmpty)
    }

    @Test func everyHandleHasItsProtections() throws {
        // The options that matter are set, and set explicitly: a handle made is a protected one.
        let handle = try CurlHandle(CurlSettings(connectTimeout: 5, totalTimeout: 5, userAgent: "t"))
        #expect(handle.settings.protocols == "http,https")
        let backend = try TestBackend()
        // libcurl itself refuses other schemes on the handle (not only Faro's own check before it).
        let result = handle.perform(CurlRequest(url: "file:///etc/passwd", maxBytes: 1000))
        #expect(result == .failure(.unsupportedProtocol))
        let page = handle.perform(
            CurlRequest(url: backend.base + "/debug/redirect?to=/sitios/cine-tonala/", maxBytes: 1 << 20))
        guard case .success(let response) = page else {
            Issue.record("\(page)")
            return
        }
        // Redirects come back to the caller; libcurl followed none.
        #expect(response.status == 302 && response.redirectURL == backend.base + "/sitios/cine-tonala/")
        #expect(try backend.requests().count == 1)
    }
}
