import FaroCore
import Testing

/// The distance texts of the list, the beacon page, visits and the terminal (`DistanceText`).
@Suite struct DistanceTextTests {
    @Test func approximateIsOneDecimalBelowTenMetresAndWholeMetresBeyond() {
        #expect(DistanceText.approximate(2.41) == "≈ 2.4 m")
        #expect(DistanceText.approximate(0.26) == "≈ 0.3 m")
        #expect(DistanceText.approximate(12.6) == "≈ 13 m")
        #expect(DistanceText.approximate(9.96) == "≈ 10 m")
        #expect(DistanceText.approximate(9.94) == "≈ 9.9 m")
        #expect(DistanceText.approximate(0) == "≈ 0.0 m")
        #expect(DistanceText.approximate(1234.4) == "≈ 1234 m")
    }

    @Test func approximateOfNoDistanceIsUnknown() {
        for d in [nil, .nan, .infinity, -.infinity, -0.5, 1e12] as [Double?] {
            #expect(DistanceText.approximate(d) == "?")
            #expect(DistanceText.step(d) == -1)
        }
        #expect(DistanceText.unknown == "?")
    }

    /// A row keeps its text while its step stays the same, so equal steps must give equal texts and different
    /// steps different texts.
    @Test func stepsAndTextsCorrespond() {
        var textOfStep: [Int: String] = [:]
        var stepOfText: [String: Int] = [:]
        var d = 0.0
        while d < 60 {
            let step = DistanceText.step(d)
            let text = DistanceText.approximate(d)
            #expect(text == DistanceText.approximate(step: step))
            #expect(textOfStep[step, default: text] == text)
            #expect(stepOfText[text, default: step] == step)
            textOfStep[step] = text
            stepOfText[text] = step
            d += 0.0137
        }
        #expect(textOfStep.count > 100)
    }

    @Test func oneDecimalAtAnyDistance() {
        #expect(DistanceText.oneDecimal(2.41) == "≈ 2.4 m")
        #expect(DistanceText.oneDecimal(12.6) == "≈ 12.6 m")
        #expect(DistanceText.oneDecimal(9.96) == "≈ 10.0 m")
        #expect(DistanceText.oneDecimal(0) == "≈ 0.0 m")
        #expect(DistanceText.oneDecimal(1234.44) == "≈ 1234.4 m")
        #expect(DistanceText.unknownMetres == "? m")
    }

    /// Below 9.95 m the list and the details write the same text, except at a binary value that is exactly half
    /// way between two tenths (the list rounds it up, `%.1f` to even).
    @Test func approximateAndOneDecimalAgreeBelowTenMetres() {
        var d = 0.0
        var compared = 0
        while d < 9.94 {
            let tenths = d * 10
            if abs(tenths - tenths.rounded(.down) - 0.5) > 1e-6 {
                #expect(DistanceText.approximate(d) == DistanceText.oneDecimal(d), "at \(d)")
                compared += 1
            }
            d += 0.0071
        }
        #expect(compared > 1000)
    }
}
