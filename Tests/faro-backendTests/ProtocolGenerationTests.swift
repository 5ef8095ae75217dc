import FaroCore
import FaroTestSupport
import Foundation
import Testing

/// faro-backend answering as each generation's servers do (docs/backend-protocols.md), asked with curl (not with
/// the client under test).
@Suite("faro-backend protocol generations", .serialized)
struct ProtocolGenerationTests {
    /// `curl -s -w STATUS ARGS`: the status and the body.
    func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
        let r = try ChildProcess.run("/usr/bin/curl", ["-s", "-w", "\n%{http_code}"] + arguments, timeout: 20)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? -1, lines.dropLast().joined(separator: "\n"))
    }

    @Test func twoRefusesTheOtherHeaderAndThreeRefusesTheOtherLiteral() throws {
        let two = try BackendProcess(["--protocol", "2"])
        let three = try BackendProcess(["--protocol", "3"])
        let v3 = ["-H", "ZUMO-API-VERSION: 3.0.0"]
        #expect(try curl(v3 + [two.url + "/tables/beacons"]).status == 400)
        #expect(try curl(v3 + [three.url + "/tables/beacons"]).status == 200)
        #expect(try curl([three.url + "/tables/beacons"]).status == 200)  // the Toolkit ignores the header
        let old = "$filter=" + PercentEncoding.encodeComponent("updatedAt gt datetimeoffset'2020-01-01T00:00:00Z'")
        #expect(try curl(["-H", "ZUMO-API-VERSION: 2.0.0", two.url + "/tables/beacons?" + old]).status == 200)
        let refused = try curl([three.url + "/tables/beacons?" + old])
        #expect(refused.status == 400 && refused.body.contains("OData v4"))
        for literal in ["cast(2020-01-01T00:00:00Z,Edm.DateTimeOffset)", "2020-01-01T00:00:00.000+00:00"] {
            let query = "$filter=" + PercentEncoding.encodeComponent("updatedAt gt \(literal)") + "&$count=true"
            let answer = try curl([three.url + "/tables/beacons?" + query])
            #expect(answer.status == 200, "\(literal): \(answer.body)")
            #expect(try JSONValue.parse(answer.body)["count"] == .integer(8))
        }
        #expect(try curl([three.url + "/tables/beacons?$inlinecount=allpages"]).status == 400)
    }

    @Test func threeListsItemsCountAndNextLinkWithNullsPresentAndPagesByItsCap() throws {
        let three = try BackendProcess(["--protocol", "3", "--page-cap", "3"])
        let first = try JSONValue.parse(try curl([three.url + "/tables/beacons?$orderby=id&$count=true"]).body)
        #expect(first.objectMembers?.map(\.0) == ["items", "count", "nextLink"])
        #expect(first["items"]?.arrayValue?.count == 3 && first["count"] == .integer(8))
        #expect(first["nextLink"] == .string("$orderby=id&$count=true&$skip=3"))
        let row = try #require(first["items"]?.arrayValue?.first)
        #expect(row["createdAt"] == nil && row["version"]?.stringValue?.count == 24)
        let last = try JSONValue.parse(try curl([three.url + "/tables/beacons?$orderby=id&$skip=6"]).body)
        #expect(last["items"]?.arrayValue?.count == 2 && last["count"] == .null && last["nextLink"] == .null)
        let absolute = try BackendProcess(["--protocol", "3", "--page-cap", "3", "--next-link", "absolute"])
        let linked = try JSONValue.parse(try curl([absolute.url + "/tables/beacons"]).body)
        #expect(linked["nextLink"] == .string(absolute.url + "/tables/beacons?$skip=3"))
    }

    @Test func threeAnswers410ForADeletedRowAnd412ForAStaleVersion() throws {
        let three = try BackendProcess(["--protocol", "3"])
        let row = three.url + "/tables/beacons/demo-100-1"
        let stale = try curl(["-X", "DELETE", "-H", "If-Match: \"AAAA\"", row])
        let held = try JSONValue.parse(stale.body)
        #expect(stale.status == 412 && held["id"] == .string("demo-100-1"))
        let version = try #require(try JSONValue.parse(stale.body)["version"]?.stringValue)
        #expect(try curl(["-X", "DELETE", "-H", "If-Match: \"\(version)\"", row]).status == 200)
        #expect(try curl([row]).status == 410)
        #expect(try curl(["-X", "DELETE", row]).status == 410)
        // Listed only with __includedeleted=true.
        let live = try JSONValue.parse(try curl([three.url + "/tables/beacons?$count=true"]).body)
        let all = try JSONValue.parse(
            try curl([three.url + "/tables/beacons?$count=true&__includedeleted=true"]).body)
        #expect(live["count"] == .integer(7) && all["count"] == .integer(8))
    }

    @Test func timestampsInEachServersSpelling() throws {
        for (style, suffix) in [("ms", "Z"), ("offset", "+00:00"), ("seconds", "Z")] {
            let backend = try BackendProcess(["--protocol", "3", "--timestamps", style])
            let page = try JSONValue.parse(try curl([backend.url + "/tables/beacons?$top=1"]).body)
            let stamp = try #require(page["items"]?.arrayValue?.first?["updatedAt"]?.stringValue)
            #expect(stamp.hasSuffix(suffix) && CatalogTimestamp(stamp) != nil, "\(style): \(stamp)")
            #expect(stamp.contains(".") == (style != "seconds"), "\(style): \(stamp)")
        }
    }
}
