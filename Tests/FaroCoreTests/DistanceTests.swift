import FaroCore
import Foundation
import Testing

/// Distance estimation: AltBeacon's reference formulas, the log-distance model, Faro's Kalman filter and the
/// proximity classes.
@Suite struct DistanceTests {
    // MARK: AltBeacon curve fit

    @Test func curveFitMatchesAltBeaconFormula() throws {
        let model = CurveFittedPathLoss()
        // ratio = 1 → A + C.
        let atOneMetre = try #require(model.distance(rssi: -59, measuredPower: -59))
        #expect(abs(atOneMetre - (0.42093 + 0.54992)) < 1e-9)
        // ratio = 1.5 → 0.42093·1.5^6.9476 + 0.54992 ≈ 7.59.
        let far = try #require(model.distance(rssi: -90, measuredPower: -60))
        #expect(abs(far - (0.42093 * pow(1.5, 6.9476) + 0.54992)) < 1e-9)
        #expect(abs(far - 7.59) < 0.01)
        // ratio < 1 → ratio^10.
        let near = try #require(model.distance(rssi: -30, measuredPower: -60))
        #expect(abs(near - pow(0.5, 10)) < 1e-12)
    }

    @Test func curveFitRejectsUnknownSignal() {
        let model = CurveFittedPathLoss()
        #expect(model.distance(rssi: 0, measuredPower: -59) == nil)
        #expect(model.distance(rssi: -60, measuredPower: 0) == nil)
    }

    // MARK: AltBeacon running average

    @Test func runningAverageTrimsTopAndBottomTenth() throws {
        var filter = RunningAverageRSSIFilter(window: 20)
        // 20 samples: -100 and -40 are extremes; AltBeacon drops indices below 20/10+1 = 3 and above 20-2-2 = 16.
        let values: [Double] = [-100, -40] + (0..<18).map { -60 - Double($0 % 3) }
        for (i, v) in values.enumerated() { filter.add(rssi: v, at: Double(i) * 0.5) }
        let value = filter.smoothed(at: 10)
        let smoothed = try #require(value)
        let sorted = values.sorted()
        let expected = sorted[3...16].reduce(0, +) / 14
        #expect(abs(smoothed - expected) < 1e-9)
        #expect(smoothed > -62 && smoothed < -60)
    }

    @Test func runningAverageForgetsSamplesOutsideTheWindow() throws {
        var filter = RunningAverageRSSIFilter(window: 20)
        for t in 0..<10 { filter.add(rssi: -90, at: Double(t)) }
        for t in 30..<40 { filter.add(rssi: -50, at: Double(t)) }
        let recent = filter.smoothed(at: 40)
        #expect(recent == -50)
        let later = filter.smoothed(at: 100)
        #expect(later == nil)
    }

    @Test func armaMovesATenthOfTheWayPerSample() throws {
        var filter = ArmaRSSIFilter()
        filter.add(rssi: -60, at: 0)
        filter.add(rssi: -70, at: 1)
        #expect(abs(try #require(filter.smoothed(at: 1)) - (-61)) < 1e-12)
    }

    // MARK: Log-distance

    @Test func logDistanceValues() throws {
        let free = LogDistancePathLoss(exponent: 2)
        #expect(abs(try #require(free.distance(rssi: -59, measuredPower: -59)) - 1) < 1e-12)
        #expect(abs(try #require(free.distance(rssi: -79, measuredPower: -59)) - 10) < 1e-9)
        let indoor = LogDistancePathLoss(exponent: 3)
        #expect(abs(try #require(indoor.distance(rssi: -89, measuredPower: -59)) - 10) < 1e-9)
        #expect(abs(try #require(indoor.distance(rssi: -50, measuredPower: -59)) - pow(10, -0.3)) < 1e-12)
        #expect(free.distance(rssi: 0, measuredPower: -59) == nil)
        #expect(LogDistancePathLoss(exponent: 0).distance(rssi: -60, measuredPower: -59) == nil)
    }

    // MARK: Kalman

    @Test func kalmanConvergesOnASteadySignal() throws {
        var filter = KalmanRSSIFilter()
        var noise = [-3.0, 2, -1, 4, -2, 1, 0, -4, 3, 0]
        for i in 0..<200 {
            filter.add(rssi: -70 + noise[i % noise.count], at: Double(i) * 0.2)
            noise.swapAt(i % noise.count, (i * 7) % noise.count)
        }
        let value = try #require(filter.smoothed(at: 40))
        #expect(abs(value - (-70)) < 1.5)
    }

    @Test func kalmanIgnoresASingleDeepFade() throws {
        var filter = KalmanRSSIFilter()
        for i in 0..<100 { filter.add(rssi: -60, at: Double(i) * 0.2) }
        filter.add(rssi: -95, at: 20)
        let value = try #require(filter.smoothed(at: 20))
        // The 35 dB fade is clipped to the gate and weighted by the small gain: well under 2 dB of pull.
        #expect(value < -60 && value > -62)
        var unguarded = ArmaRSSIFilter(speed: 0.5)
        unguarded.add(rssi: -60, at: 0)
        unguarded.add(rssi: -95, at: 1)
        #expect(try #require(unguarded.smoothed(at: 1)) < value - 10)
    }

    @Test func kalmanFollowsAStepFasterThanAltBeacon() throws {
        var kalman = KalmanRSSIFilter()
        var running = RunningAverageRSSIFilter(window: 20)
        var t = 0.0
        for _ in 0..<150 {
            kalman.add(rssi: -60, at: t)
            running.add(rssi: -60, at: t)
            t += 0.2
        }
        let start = t
        func reached(_ value: Double?) -> Bool { (value ?? 0) <= -60 - 0.9 * 20 }
        var kalmanTime: Double?
        var runningTime: Double?
        while t < start + 40 {
            kalman.add(rssi: -80, at: t)
            running.add(rssi: -80, at: t)
            if kalmanTime == nil, reached(kalman.smoothed(at: t)) { kalmanTime = t - start }
            let average = running.smoothed(at: t)
            if runningTime == nil, reached(average) { runningTime = t - start }
            t += 0.2
        }
        let k = try #require(kalmanTime)
        let r = try #require(runningTime)
        #expect(k < 15)
        #expect(k < r)
        #expect(abs(try #require(kalman.smoothed(at: t)) - (-80)) < 0.5)
    }

    @Test func kalmanStartsFromTheFirstSample() {
        var filter = KalmanRSSIFilter()
        #expect(filter.smoothed(at: 0) == nil)
        filter.add(rssi: -72, at: 5)
        #expect(filter.smoothed(at: 5) == -72)
    }

    @Test func faroDefaultUsesKalmanAndLogDistance() throws {
        let strategy = DistanceStrategy.faroDefault
        var filter = strategy.makeFilter()
        filter.add(rssi: -59, at: 0)
        let rssi = try #require(filter.smoothed(at: 0))
        #expect(abs(try #require(strategy.model.distance(rssi: rssi, measuredPower: -59)) - 1) < 1e-9)
        #expect(try #require(strategy.model.distance(rssi: -89, measuredPower: -59)) > 5)
    }

    // MARK: Proximity

    @Test func proximityClasses() {
        #expect(Proximity(distance: 0.49) == .immediate)
        #expect(Proximity(distance: 0.5) == .near)
        #expect(Proximity(distance: 2.99) == .near)
        #expect(Proximity(distance: 3) == .far)
        #expect(Proximity(distance: nil) == .unknown)
        #expect(Proximity(distance: -1) == .unknown)
        #expect(Proximity(distance: .nan) == .unknown)
    }
}
