import Testing

@testable import FaroCore

@Suite struct OutboxRetryPolicyTests {
    @Test func aRefusedAppKeyIsNotTheRowsFault() {
        for status in [401, 403] {
            guard case .keyRefused(let message) = DeliveryVerdict.classify(.response(status: status, message: "no"))
            else {
                Issue.record("HTTP \(status) must mean the app key was refused")
                continue
            }
            #expect(
                message.english == "the backend refused the app key (HTTP \(status): no); check the app key setting")
        }
        var r = SplitMix64(seed: 1)
        let kept = OutboxTransition.after(
            .keyRefused(reason: .keyRefused(status: 401, message: "")),
            progress: OutboxRowProgress(attempts: 4, serverErrors: 2, queuedAt: 0), reachedServer: true, now: 50,
            schedule: .background, policy: OutboxRetryPolicy(), random: &r)
        #expect(kept.state == .pending && kept.attempts == 4 && kept.nextAttemptAt == 50)
        #expect(kept.serverErrors == nil)  // nothing counts against the row
    }

    @Test func aMissingTableIsNamed() {
        #expect(
            DeliveryVerdict.classify(.response(status: 404, message: "The table 'x' does not exist."), table: "rateme")
                == .rejected(reason: .tableMissing(table: "rateme", message: "The table 'x' does not exist.")))
        #expect(
            OutboxReason.tableMissing(table: "rateme", message: "The table 'x' does not exist.").english
                == "table rateme not found on the backend (HTTP 404: The table 'x' does not exist.)")
    }

    @Test func serverErrorsAreBoundedAndTheRowKeepsTheServersReason() {
        let policy = OutboxRetryPolicy(maxServerErrors: 3, maxAge: 1000)
        var r = SplitMix64(seed: 2)
        var progress = OutboxRowProgress(attempts: 0, serverErrors: 0, queuedAt: 0)
        var states: [OutboxRowState] = []
        var last: OutboxTransition?
        for i in 0..<3 {
            let t = OutboxTransition.after(
                .retry(reason: .serverTrouble(status: 500, message: "boom")), progress: progress, reachedServer: true,
                now: Double(i),
                schedule: .interactive, policy: policy, random: &r)
            states.append(t.state)
            progress = OutboxRowProgress(attempts: t.attempts, serverErrors: t.serverErrors ?? 0, queuedAt: 0)
            last = t
        }
        #expect(states == [.pending, .pending, .failed])
        #expect(last?.lastError == "gave up after 3 attempts; the backend kept answering HTTP 500: boom")
        #expect(last?.reason == .gaveUpAfterErrors(count: 3, last: .serverTrouble(status: 500, message: "boom")))
    }

    @Test func noNetworkNeverCountsButAgeDoes() {
        let policy = OutboxRetryPolicy(maxServerErrors: 2, maxAge: 86_400)
        var r = SplitMix64(seed: 3)
        let offline = OutboxTransition.after(
            .retry(reason: .unreachable(detail: "Couldn't connect to server")),
            progress: OutboxRowProgress(attempts: 50, serverErrors: 1, queuedAt: 0), reachedServer: false,
            now: 3600, schedule: .background, policy: policy, random: &r)
        #expect(offline.state == .pending && offline.serverErrors == 1 && offline.attempts == 51)
        let old = OutboxTransition.after(
            .retry(reason: .unreachable(detail: "Couldn't connect to server")),
            progress: OutboxRowProgress(attempts: 51, serverErrors: 1, queuedAt: 0), reachedServer: false,
            now: 2 * 86_400, schedule: .background, policy: policy, random: &r)
        #expect(old.state == .failed && old.lastError == "gave up after waiting 2 day(s): Couldn't connect to server")
        #expect(old.reason == .gaveUpAfterDays(days: 2, last: .unreachable(detail: "Couldn't connect to server")))
    }

    @Test func policyAndOrderKeysFromTheirSources() throws {
        let p = OutboxRetryPolicy(environment: ["FARO_OUTBOX_MAX_ATTEMPTS": "4", "FARO_OUTBOX_MAX_AGE_DAYS": "2"])
        #expect(p == OutboxRetryPolicy(maxServerErrors: 4, maxAge: 2 * 86_400))
        #expect(OutboxRetryPolicy(environment: ["FARO_OUTBOX_MAX_ATTEMPTS": "0"]) == OutboxRetryPolicy())
        let site = SiteIdentity(cliente: "Café", titulo: "Menú", url: "u")
        let registration = try BusinessRegistration.validate(nombre: "A", email: "a@e.mx", telefono: "5512345678").get()
        #expect(
            OutboxSubmission.rateme(SiteRating(site: site, imei: "i", calificacion: 1, fechahora: "f")).orderKey
                == "Café\u{1F}Menú"
        )
        #expect(OutboxSubmission.interested(registration).orderKey == nil)
    }

    @Test func aManualClockMovesOnlyWhenToldAndTellsItsObservers() {
        let clock = ManualClock(now: 100)
        let seen = Counter()
        clock.whenAdvanced { seen.add() }
        #expect(clock.now() == 100)
        clock.advance(by: 2.5)
        clock.advance(by: -10)  // never backwards
        #expect(clock.now() == 102.5 && seen.value == 2)
    }
}

/// A count several threads add to.
final class Counter: @unchecked Sendable {
    private let lock = ConditionLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

@Suite struct OutboxReasonStorageTests {
    @Test func everyReasonSurvivesItsStoredForm() {
        let reasons: [OutboxReason] = [
            .unreachable(detail: "Couldn't connect to server"), .serverTrouble(status: 503, message: "busy \"now\""),
            .redirect(status: 302, message: "to https://x/"), .keyRefused(status: 401, message: ""),
            .tableMissing(table: "rateme", message: "gone"), .refused(status: 400, message: "bad column"),
            .conflict(difference: "nombre differs"),
            .gaveUpAfterErrors(count: 10, last: .serverTrouble(status: 500, message: "boom")),
            .gaveUpAfterDays(days: 30, last: .unreachable(detail: "timeout")),
        ]
        for reason in reasons { #expect(OutboxReason(stored: reason.stored) == reason, "\(reason.stored)") }
        #expect(reasons.map(\.status) == [nil, 503, 302, 401, 404, 400, nil, 500, nil])
        // Text stored before reasons were values is not a reason.
        #expect(OutboxReason(stored: "HTTP 400: bad") == nil)
        #expect(OutboxReason(stored: #"{"code":"refused"}"#) == nil)
    }
}
