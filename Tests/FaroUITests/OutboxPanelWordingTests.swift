import FaroCore
import Testing

@testable import FaroApp
@testable import FaroUI

/// How the outbox panel words a row's reason (in English here: no catalog is bound, so gettext gives the msgids).
/// Only the server's own message reaches the window as it is; the transport's and the conflict's English stay for
/// the terminal.
@Suite @MainActor struct OutboxPanelWordingTests {
    func row(_ status: OutboxPanelRow.Status, _ reason: OutboxReason?) -> OutboxPanelRow {
        OutboxPanelRow(id: "r", table: .rateme, status: status, reason: reason, backend: nil, createdAt: 0)
    }

    @Test func everyReasonIsWordedByThePanel() {
        #expect(
            OutboxPanel.detail(row(.failed, .refused(status: 400, message: "bad column")))
                == "Refused by the server\nThe server refused it (HTTP 400). The server says: “bad column”")
        #expect(
            OutboxPanel.detail(row(.pending(attempts: 2), .unreachable(detail: "Couldn't connect to server")))
                == "Not sent yet (2 attempts)\nThe server could not be reached.")
        #expect(
            OutboxPanel.reason(.conflict(difference: "the backend holds another row with id r1"))
                == "The server already holds a different submission with the same identifier.")
        #expect(
            OutboxPanel.reason(.gaveUpAfterErrors(count: 10, last: .serverTrouble(status: 503, message: "")))
                == "Faro gave up after 10 attempts. The server had a problem (HTTP 503); Faro will try again.")
        #expect(
            OutboxPanel.reason(.gaveUpAfterDays(days: 1, last: .unreachable(detail: "timeout")))
                == "Faro gave up after waiting 1 day. The server could not be reached.")
        #expect(
            OutboxPanel.reason(.tableMissing(table: "rateme", message: ""))
                == "The server has no table “rateme” (HTTP 404).")
        #expect(OutboxPanel.reason(.keyRefused(status: 401, message: "")).contains("app key in Preferences"))
        #expect(OutboxPanel.reason(.redirect(status: 302, message: "to https://elsewhere/")).contains("HTTP 302"))
        #expect(!OutboxPanel.reason(.redirect(status: 302, message: "to https://elsewhere/")).contains("elsewhere"))
    }

    @Test func aRowFromBeforeReasonsWereValuesSaysWhereItStands() {
        #expect(OutboxPanel.detail(row(.failed, nil)) == "Refused by the server")
        #expect(OutboxPanel.detail(row(.pending(attempts: 0), nil)) == "Waiting to be sent")
        #expect(OutboxPanel.detail(row(.pending(attempts: 1), nil)) == "Not sent yet (1 attempt)")
    }
}
