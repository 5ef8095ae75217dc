import Testing

@testable import FaroCore

/// A generator whose `nextUnit()` always answers the same value in [0, 1), to pin the jitter.
struct FixedUnit: RandomNumberGenerator {
    var value: Double
    mutating func next() -> UInt64 { UInt64(value * Double(UInt64(1) << 53)) << 11 }
}

@Suite struct OutboxBackoffTests {
    @Test func ceilingDoublesUpToTheCap() {
        let s = BackoffSchedule(base: 1, factor: 2, cap: 10)
        #expect((1...6).map { s.ceiling(forAttempt: $0) } == [1, 2, 4, 8, 10, 10])
        #expect(s.ceiling(forAttempt: 0) == 0)
        #expect(s.ceiling(forAttempt: 1_000_000) == 10)
    }

    @Test func jitterSpansTheUpperHalf() {
        let s = BackoffSchedule(base: 2, cap: 600)
        var low = FixedUnit(value: 0)
        var high = FixedUnit(value: 0.999999)
        #expect(s.delay(forAttempt: 3, random: &low) == 4)
        #expect(abs(s.delay(forAttempt: 3, random: &high) - 8) < 0.0001)
    }

    @Test func seededJitterIsReproducibleAndSpread() {
        let s = BackoffSchedule.background
        var a = SplitMix64(seed: 7)
        var b = SplitMix64(seed: 7)
        let first = (0..<50).map { _ in s.delay(forAttempt: 4, random: &a) }
        let second = (0..<50).map { _ in s.delay(forAttempt: 4, random: &b) }
        #expect(first == second)
        #expect(first.allSatisfy { $0 >= 8 && $0 < 16 })
        #expect(Set(first).count > 40)
    }

    @Test func interactiveScheduleStaysShort() {
        var r = SplitMix64(seed: 1)
        #expect(BackoffSchedule.interactive.delay(forAttempt: 50, random: &r) <= 5)
        #expect(BackoffSchedule.interactive.delay(forAttempt: 1, random: &r) >= 0.05)
    }
}

@Suite struct OutboxClassificationTests {
    @Test func createdAndConflictMeanDelivered() {
        #expect(DeliveryVerdict.classify(.response(status: 201, message: "")) == .delivered)
        #expect(DeliveryVerdict.classify(.response(status: 200, message: "")) == .delivered)
        #expect(DeliveryVerdict.classify(.response(status: 409, message: "exists")) == .delivered)
    }

    @Test func serverErrorsAndTransportFailuresRetry() {
        for status in [500, 502, 503, 504, 408, 429] {
            guard case .retry(let reason) = DeliveryVerdict.classify(.response(status: status, message: "busy")) else {
                Issue.record("HTTP \(status) must be retried")
                continue
            }
            #expect(reason == .serverTrouble(status: status, message: "busy"))
            #expect(reason.english == "HTTP \(status): busy")
        }
        #expect(
            DeliveryVerdict.classify(.transportFailure("connection refused"))
                == .retry(reason: .unreachable(detail: "connection refused")))
    }

    @Test func otherClientErrorsAreKeptAsFailedWithTheServerMessage() {
        #expect(
            DeliveryVerdict.classify(.response(status: 400, message: "bad column"))
                == .rejected(reason: .refused(status: 400, message: "bad column")))
        #expect(
            DeliveryVerdict.classify(.response(status: 400, message: "bad column")).reason?.english
                == "HTTP 400: bad column")
        #expect(DeliveryVerdict.classify(.response(status: 404, message: "")).reason?.english == "HTTP 404")
        guard case .rejected(let m) = DeliveryVerdict.classify(.response(status: 302, message: "")) else {
            Issue.record("a redirect must not count as delivered")
            return
        }
        #expect(m == .redirect(status: 302, message: ""))
        #expect(m.english == "HTTP 302 redirect; Faro does not follow redirects, check the backend URL")
    }

    @Test func transitionsApplyTheVerdict() {
        var r = FixedUnit(value: 0)
        let retry = OutboxTransition.after(
            .retry(reason: .serverTrouble(status: 503, message: "")), previousAttempts: 2, now: 100,
            schedule: BackoffSchedule(base: 1, cap: 60), random: &r)
        #expect(
            retry
                == OutboxTransition(
                    state: .pending, attempts: 3, nextAttemptAt: 102, reason: .serverTrouble(status: 503, message: "")))
        #expect(retry.lastError == "HTTP 503")
        let done = OutboxTransition.after(.delivered, previousAttempts: 0, now: 5, schedule: .background, random: &r)
        #expect(done.state == .delivered && done.attempts == 1 && done.lastError == nil && done.reason == nil)
        let refused = OutboxTransition.after(
            .rejected(reason: .refused(status: 400, message: "x")), previousAttempts: 0, now: 5,
            schedule: .background, random: &r)
        #expect(refused.state == .failed && refused.lastError == "HTTP 400: x")
    }
}
