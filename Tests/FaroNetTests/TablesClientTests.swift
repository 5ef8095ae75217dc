import FaroCore
import FaroNet
import FaroStore
import FaroTestSupport
import Foundation
import Testing

/// Runs the system `curl` (for requests the client itself never makes, like one without ZUMO-API-VERSION).
func rawCurl(_ arguments: [String]) throws -> (status: Int, body: String) {
    let r = try ChildProcess.run("/usr/bin/curl", ["-s", "-w", "\n%{http_code}"] + arguments, timeout: 20)
    let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    return (Int(lines.last ?? "") ?? -1, lines.dropLast().joined(separator: "\n"))
}

@Suite(.serialized) struct TablesClientTests {
    @Test func catalogLookupByMajorMinorAndUUID() throws {
        let backend = try BackendProcess()
        let client = try TablesClient(configuration: try backend.configuration())
        let entries = try client.catalog(major: 100, minor: 1)
        #expect(entries.count == 1)
        #expect(entries.first?.cliente == "Café La Parroquia")
        #expect(entries.first?.url == "\(backend.url)/sitios/cafe-la-parroquia/")
        #expect(try client.catalog(major: 100, minor: 1, uuid: "FA20DE30-0B1E-4C5A-9B5E-D3A0BE0C0DE1").count == 1)
        #expect(try client.catalog(major: 100, minor: 1, uuid: "e2c56db5-dffb-48d2-b060-d0f5a71096e0").isEmpty)
        #expect(try client.catalog(major: 7, minor: 42).isEmpty)
        // Every demo beacon has a row, and its microsite is served in Spanish with its stylesheet and images.
        let all = try client.list(table: "beacons", query: "$inlinecount=allpages")
        #expect(all.count == 8)
        for row in all.rows {
            guard let url = row["url"]?.stringValue else {
                Issue.record("row without url")
                continue
            }
            guard case .success(let page) = client.get(url) else {
                Issue.record("\(url) failed")
                continue
            }
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(page.status == 200 && html.contains("<html lang=\"es\">") && html.contains("style.css"))
            guard case .success(let css) = client.get(url + "style.css"),
                case .success(let png) = client.get(url + "foto.png")
            else {
                Issue.record("assets of \(url) failed")
                continue
            }
            #expect(css.status == 200 && png.status == 200 && png.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
    }

    @Test func insertReturnsTheRowWithSystemColumnsAndDuplicateIs409() throws {
        let backend = try BackendProcess()
        let client = try TablesClient(configuration: try backend.configuration())
        var random = SystemRandomNumberGenerator()
        let id = OutboxRowID.make(using: &random)
        let registration = try BusinessRegistration.validate(nombre: "Ana", email: "ana@e.mx", telefono: "5512345678")
            .get()
        let body = OutboxSubmission.interested(registration).jsonBody(id: id)
        guard case .success(let created) = client.post(client.tableURL("interested"), json: body) else {
            Issue.record("insert failed")
            return
        }
        #expect(created.status == 201)
        let row = try JSONValue.parse(bytes: created.body)
        #expect(row["id"] == .string(id) && row["nombre"] == .string("Ana") && row["telefono"] == .string("5512345678"))
        for column in ["createdAt", "updatedAt", "version"] { #expect(row[column]?.stringValue != nil, "\(column)") }
        #expect(row["deleted"] == .bool(false))
        #expect(created.header("ETag") == "\"\(row["version"]?.stringValue ?? "")\"")
        #expect(row["createdAt"]?.stringValue?.hasSuffix("Z") == true && row["createdAt"]?.stringValue?.count == 24)

        let again = client.insert(table: "interested", json: body)
        guard case .response(409, _) = again else {
            Issue.record("duplicate must be 409, got \(again)")
            return
        }
        #expect(DeliveryVerdict.classify(again) == .delivered)
        #expect(try client.item(table: "interested", id: id)?["email"] == .string("ana@e.mx"))
        #expect(try client.item(table: "interested", id: "no-such-id") == nil)

        // A row without id gets a server-generated one.
        guard case .success(let generated) = client.post(client.tableURL("interested"), json: #"{"nombre":"Bo"}"#)
        else {
            Issue.record("insert without id failed")
            return
        }
        #expect(generated.status == 201)
        #expect((try JSONValue.parse(bytes: generated.body))["id"]?.stringValue?.count == 36)

        // Dynamic schema: a new field adds a column; earlier rows read it as null; booleans stay booleans.
        #expect(
            client.insert(table: "interested", json: #"{"id":"z9","nombre":"Cy","nuevo":true,"nota":1.5}"#)
                == .response(status: 201, message: ""))
        #expect(try client.item(table: "interested", id: "z9")?["nuevo"] == .bool(true))
        #expect(try client.item(table: "interested", id: "z9")?["nota"] == .number(1.5))
        #expect(try client.item(table: "interested", id: id)?["nuevo"] == .null)
        #expect(try client.list(table: "interested", query: "$filter=nuevo%20eq%20true").rows.count == 1)
    }

    @Test func badInsertsAre400AndKeptAsFailed() throws {
        let backend = try BackendProcess()
        let client = try TablesClient(configuration: try backend.configuration())
        for body in [
            #"{"id":"x1","createdAt":"2026-01-01T00:00:00.000Z"}"#, #"{"id":"x2","deleted":false}"#,
            #"{"id":"x3","updatedAt":"y"}"#, #"{"id": "x4", "#, "[1,2]", #"{"id":"x5","n":{"a":1}}"#,
        ] {
            let result = client.insert(table: "rateme", json: body)
            guard case .response(400, let message) = result else {
                Issue.record("\(body) → \(result)")
                continue
            }
            #expect(!message.isEmpty)
            guard case .rejected(let shown) = DeliveryVerdict.classify(result) else {
                Issue.record("not rejected")
                continue
            }
            #expect(shown.status == 400 && shown.english.contains("400"))
        }
        #expect(try client.list(table: "rateme").rows.isEmpty)
    }

    @Test func apiVersionIsRequiredInHeaderOrQuery() throws {
        let backend = try BackendProcess()
        let table = "\(backend.url)/tables/beacons"
        let missing = try rawCurl([table])
        #expect(missing.status == 400 && missing.body.contains("ZUMO-API-VERSION"))
        #expect(try rawCurl(["-H", "zumo-api-version: 2.0.0", table]).status == 200)
        #expect(try rawCurl(["-H", "ZuMo-Api-Version: 2.0.1", table]).status == 200)
        #expect(try rawCurl([table + "?ZUMO-API-VERSION=2.0.0"]).status == 200)
        #expect(try rawCurl([table + "?zumo-api-version=2.0.0"]).status == 200)
        #expect(try rawCurl(["-H", "ZUMO-API-VERSION: 1.0.0", table]).status == 400)
        #expect(try rawCurl(["-X", "POST", "-d", #"{"a":1}"#, "\(backend.url)/tables/interested"]).status == 400)
    }

    @Test func listQueriesFilterOrderSelectPageAndCount() throws {
        let backend = try BackendProcess()
        let client = try TablesClient(configuration: try backend.configuration())
        let rows = [
            #"{"id":"a","name":"Ana","n":1,"ok":true,"city":"O'Higgins"}"#,
            #"{"id":"b","name":"Bo","n":2,"ok":false,"city":"CDMX"}"#,
            #"{"id":"c","name":"Cy","n":3,"ok":true,"city":"CDMX"}"#,
            #"{"id":"d","name":"Di","n":4.5,"ok":false,"city":"GDL"}"#,
        ]
        for r in rows { #expect(client.insert(table: "people", json: r) == .response(status: 201, message: "")) }
        func ids(_ filter: String, extra: String = "") throws -> [String] {
            let q = "$filter=" + (filter.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") + extra
            return try client.list(table: "people", query: q).rows.compactMap { $0["id"]?.stringValue }
        }
        #expect(try ids("n eq 2") == ["b"])
        #expect(try ids("n ne 2") == ["a", "c", "d"])
        #expect(try ids("n gt 2") == ["c", "d"])
        #expect(try ids("n lt 2") == ["a"])
        #expect(try ids("n gt 4.2") == ["d"])
        #expect(try ids("ok eq true") == ["a", "c"])
        #expect(try ids("city eq 'O''Higgins'") == ["a"])
        #expect(try ids("(city eq 'CDMX' and ok eq true) or (n gt 4)") == ["c", "d"])
        #expect(try ids("city eq 'CDMX' and (ok eq true or n lt 3)") == ["b", "c"])
        #expect(
            try ids(
                "city eq 'CDMX'",
                extra: "&$orderby=" + "n desc".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!) == [
                    "c", "b",
                ])
        let selected = try client.list(table: "people", query: "$select=id,name&$top=2&$skip=1")
        #expect(selected.rows.count == 2)
        #expect(selected.rows.first?.objectMembers?.map(\.0) == ["id", "name"])
        #expect(selected.rows.first?["id"] == .string("b"))
        #expect(selected.next?.contains("$skip=3") == true)
        let counted = try client.list(table: "people", query: "$inlinecount=allpages&$top=1")
        #expect(counted.count == 4 && counted.rows.count == 1)
        // Following the Link header pages through everything exactly once.
        var page = try client.list(table: "people", query: "$top=3")
        var seen = page.rows.compactMap { $0["id"]?.stringValue }
        var hops = 0
        while let next = page.next, hops < 5 {
            page = try client.list(url: next)
            seen += page.rows.compactMap { $0["id"]?.stringValue }
            hops += 1
        }
        #expect(seen == ["a", "b", "c", "d"])
        #expect(try client.list(table: "people", query: "$top=4").next != nil)  // a full page has a next link
        #expect(try client.list(table: "people", query: "$top=5").next == nil)
        #expect(try client.list(table: "nothing-yet".replacingOccurrences(of: "-", with: "_")).rows.isEmpty)

        for bad in [
            "$top=1001", "$filter=nope%20eq%201", "$filter=n%20eq", "$orderby=zzz", "$select=zzz", "$skip=-1",
            "$filter=substringof('a',name)",
        ] {
            #expect(throws: TablesError.self, "\(bad)") { try client.list(table: "people", query: bad) }
            do { _ = try client.list(table: "people", query: bad) } catch {
                guard case .http(400, _) = error else {
                    Issue.record("\(bad) → \(error)")
                    continue
                }
            }
        }
        #expect(try client.list(table: "people", query: "$top=1000").rows.count == 4)
    }

    @Test func configurationRequiresHTTPSExceptLoopback() throws {
        #expect(throws: BackendConfiguration.Problem.insecure("http://example.com")) {
            try BackendConfiguration(baseURL: "http://example.com")
        }
        #expect(throws: BackendConfiguration.Problem.self) { try BackendConfiguration(baseURL: "ftp://127.0.0.1") }
        #expect(throws: BackendConfiguration.Problem.self) { try BackendConfiguration(baseURL: "not a url") }
        #expect(try BackendConfiguration(baseURL: "https://faro.example.net/").baseURL == "https://faro.example.net")
        for ok in ["http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:9", "http://127.1.2.3"] {
            #expect(try BackendConfiguration(baseURL: ok).baseURL == ok)
        }
        // Loopback by LoopbackHost's rule only, the one the device id follows: nothing that merely starts like it.
        for near in ["http://127.0.0.1.example.com", "http://127.0.0.+1:8080", "http://127.0.0:8080"] {
            #expect(throws: BackendConfiguration.Problem.insecure(near)) { try BackendConfiguration(baseURL: near) }
        }
    }

    @Test func appKeyHeaderIsSentWhenConfigured() throws {
        let backend = try BackendProcess(["--app-key", "sekret"])
        let plain = try TablesClient(configuration: try backend.configuration())
        #expect(
            throws: TablesError.http(status: 401, message: "Unauthorized: a valid ZUMO-API-KEY header is required.")
        ) {
            try plain.catalog(major: 100, minor: 1)
        }
        let keyed = try TablesClient(configuration: try BackendConfiguration(baseURL: backend.url, appKey: "sekret"))
        #expect(try keyed.catalog(major: 100, minor: 1).count == 1)
    }

    @Test func oneConnectionIsReusedAcrossRequests() throws {
        let backend = try BackendProcess()
        let client = try TablesClient(configuration: try backend.configuration())
        var opened = 0
        for i in 0..<20 {
            let result =
                i % 2 == 0
                ? client.get(client.tableURL("beacons")) : client.post(client.tableURL("t"), json: #"{"n":1}"#)
            guard case .success(let r) = result else {
                Issue.record("request \(i) failed")
                continue
            }
            opened += r.newConnections
        }
        #expect(opened == 1)
    }

    @Test(.enabled(if: RequiredTool.openssl.shouldRun, Comment(rawValue: RequiredTool.openssl.reason)))
    func tlsIsVerified() throws {
        // A real HTTPS server whose certificate nobody trusts (it was made by the test): the client refuses it, and
        // its request never reaches the server.
        let peer = try HTTPSPeer()
        let client = try TablesClient(configuration: try BackendConfiguration(baseURL: peer.httpsBase))
        guard case .transportFailure(let reason) = client.insert(table: "t", json: "{}") else {
            Issue.record("an untrusted certificate must fail")
            return
        }
        #expect(reason.lowercased().contains("certificate"), "\(reason)")
        #expect(peer.requests.isEmpty)
    }
}

@Suite(.serialized) struct FaultAndBadInputTests {
    @Test func injectedServerErrorsAreRetried() throws {
        let backend = try BackendProcess(["--fail-rate", "1", "--seed", "3"])
        let client = try TablesClient(configuration: try backend.configuration())
        var statuses = Set<Int>()
        for i in 0..<12 {
            let result = client.insert(table: "t", json: #"{"id":"r\#(i)"}"#)
            guard case .response(let status, _) = result else {
                Issue.record("\(result)")
                continue
            }
            statuses.insert(status)
            guard case .retry = DeliveryVerdict.classify(result) else {
                Issue.record("\(status) must retry")
                continue
            }
        }
        #expect(statuses == [500, 503])
    }

    @Test func aDroppedConnectionAfterTheInsertIsRetriedAndThenConflicts() throws {
        let backend = try BackendProcess(["--drop-rate", "0.5", "--seed", "5"])
        let client = try TablesClient(configuration: try backend.configuration())
        // Find an insert whose answer was cut off (the dice drop about half of them).
        var dropped: String?
        for i in 0..<40 where dropped == nil {
            let result = client.insert(table: "t", json: #"{"id":"row\#(i)"}"#)
            if case .transportFailure = result { dropped = "row\(i)" }
        }
        guard let dropped else {
            Issue.record("no connection was dropped in 40 inserts")
            return
        }
        // The insert took effect although the client saw no answer: its retries end in 409, i.e. delivered once.
        var final: DeliveryAttemptResult = .transportFailure("not tried")
        for _ in 0..<40 {
            final = client.insert(table: "t", json: #"{"id":"\#(dropped)"}"#)
            if case .response = final { break }
        }
        guard case .response(409, _) = final else {
            Issue.record("the retry must conflict, got \(final)")
            return
        }
        #expect(DeliveryVerdict.classify(final) == .delivered)
        #expect(try client.item(table: "t", id: dropped) != nil)
    }

    @Test func latencyBeyondTheTimeoutIsATransportFailure() throws {
        // The answer would come after a minute: within the test, only the client's own timeout can end the request.
        let backend = try BackendProcess(["--latency-ms", "60000"])
        var configuration = try backend.configuration()
        configuration.totalTimeout = 0.5
        let client = try TablesClient(configuration: configuration)
        guard case .transportFailure(let reason) = client.insert(table: "t", json: #"{"id":"slow"}"#) else {
            Issue.record("a slow answer must time out")
            return
        }
        #expect(reason.lowercased().contains("time"))
    }

    @Test func refusedConnectionsAreRetriedUntilTheServerIsBack() throws {
        let backend = try BackendProcess(["--refuse-for", "1"])
        let client = try TablesClient(configuration: try backend.configuration())
        // faro-backend says when it starts and stops refusing: the test waits for that, never for a time.
        #expect(backend.child.waitForLine(timeout: 20) { $0 == "refusing connections" } != nil)
        let first = client.insert(table: "t", json: #"{"id":"r"}"#)
        guard case .transportFailure = first else {
            Issue.record("expected no answer, got \(first)")
            return
        }
        guard case .retry = DeliveryVerdict.classify(first) else {
            Issue.record("must retry")
            return
        }
        #expect(backend.child.waitForLine(timeout: 20) { $0.hasPrefix("listening again on ") } != nil)
        #expect(DeliveryVerdict.classify(client.insert(table: "t", json: #"{"id":"r"}"#)) == .delivered)
        #expect(try client.item(table: "t", id: "r") != nil)
        // While refusing, the error is a connection failure.
        let refusing = try BackendProcess(["--refuse-for", "30"])
        #expect(refusing.child.waitForLine(timeout: 20) { $0 == "refusing connections" } != nil)
        let refused = try TablesClient(configuration: try refusing.configuration()).insert(table: "t", json: "{}")
        guard case .transportFailure(let reason) = refused else {
            Issue.record("expected refusal, got \(refused)")
            return
        }
        #expect(reason.lowercased().contains("connect"))
    }

    @Test func malformedJSONFromTheServerIsAnError() throws {
        let server = try CannedServer(
            response: CannedServer.http(
                status: "200 OK", headers: ["Content-Type: application/json"],
                body: Array(#"[{"id": "a", "#.utf8)))
        let client = try TablesClient(configuration: try BackendConfiguration(baseURL: server.url))
        #expect(throws: TablesError.self) { try client.catalog(major: 1, minor: 1) }
        do { _ = try client.catalog(major: 1, minor: 1) } catch {
            guard case .malformedResponse = error else {
                Issue.record("\(error)")
                return
            }
        }
    }

    @Test func hugeBodiesAreCapped() throws {
        let huge = [UInt8](repeating: 0x20, count: 6 << 20)
        let server = try CannedServer(
            response: CannedServer.http(status: "200 OK", headers: ["Content-Type: application/json"], body: huge))
        var configuration = try BackendConfiguration(baseURL: server.url)
        configuration.maxResponseBytes = 1 << 20
        let client = try TablesClient(configuration: configuration)
        #expect(throws: TablesError.responseTooLarge(limit: 1 << 20)) { try client.catalog(major: 1, minor: 1) }
        guard case .transportFailure = client.insert(table: "t", json: "{}") else {
            Issue.record("a huge insert answer must not count as a response")
            return
        }
    }

    @Test func aWrongContentTypeIsRefused() throws {
        let server = try CannedServer(
            response: CannedServer.http(
                status: "200 OK", headers: ["Content-Type: text/html"],
                body: Array("<html>[]</html>".utf8)))
        let client = try TablesClient(configuration: try BackendConfiguration(baseURL: server.url))
        #expect(throws: TablesError.unexpectedContentType("text/html")) { try client.catalog(major: 1, minor: 1) }
    }

    @Test func redirectsToAnotherHostAreNotFollowed() throws {
        // The redirect target is another loopback server that would accept anything: it must see no request.
        let target = try BackendProcess()
        let server = try CannedServer(
            response: CannedServer.http(
                status: "307 Temporary Redirect", headers: ["Location: http://localhost:\(target.port)/tables/t"],
                body: []))
        let client = try TablesClient(configuration: try BackendConfiguration(baseURL: server.url))
        #expect(throws: TablesError.redirected(status: 307, location: "http://localhost:\(target.port)/tables/t")) {
            try client.catalog(major: 1, minor: 1)
        }
        let insert = client.insert(table: "t", json: #"{"id":"moved"}"#)
        guard case .rejected(let message) = DeliveryVerdict.classify(insert) else {
            Issue.record("a redirected insert must be kept as failed, got \(insert)")
            return
        }
        #expect(message.english.contains("redirect"))
        let onTarget = try TablesClient(configuration: try target.configuration()).list(table: "t")
        #expect(onTarget.rows.isEmpty)
        // A next link pointing elsewhere is not followed either.
        #expect(throws: TablesError.self) {
            try TablesClient(configuration: try target.configuration()).list(
                url: "http://localhost:\(target.port)/tables/t")
        }
    }
}
