import FaroApp
import FaroTestSupport
import Foundation
import Testing

/// `SettingsKey` is the one declaration of Faro's settings; the schema file must say the same: every key, its type,
/// and the periods' defaults.
@Suite struct SettingsKeyTests {
    /// The schema's keys: name → (type, default as written).
    func schemaKeys() throws -> [String: (type: String, value: String)] {
        let text = try String(contentsOfFile: Paths.data + "/io.github.faro.Faro.gschema.xml.in", encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern: #"<key name="([^"]+)" type="([^"]+)">.*?<default>([^<]*)</default>"#,
            options: [.dotMatchesLineSeparators])
        var keys: [String: (type: String, value: String)] = [:]
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let field = { (i: Int) in String(text[Range(match.range(at: i), in: text)!]) }
            keys[field(1)] = (field(2), field(3))
        }
        return keys
    }

    @Test func theSchemaHoldsEveryKeyWithItsTypeAndNoOther() throws {
        let schema = try schemaKeys()
        #expect(Set(schema.keys) == Set(SettingsKey.allCases.map(\.rawValue)))
        for key in SettingsKey.allCases {
            #expect(schema[key.rawValue]?.type == key.typeString, "\(key.rawValue)")
        }
    }

    @Test func thePeriodsDefaultsAreTheCoresDefaults() throws {
        let schema = try schemaKeys()
        let periods = SettingsKey.allCases.filter { $0.defaultSeconds != nil }
        #expect(periods.count == 3)
        for key in periods {
            #expect(schema[key.rawValue].flatMap { Double($0.value) } == key.defaultSeconds, "\(key.rawValue)")
        }
    }
}
