import FaroCore
import Testing

@Suite("Search folding (case and accents do not count)")
struct SearchTextTests {
    @Test func foldingDropsCaseAndAccents() {
        #expect(SearchText.fold("Ferretería Ñandú") == "ferreteria nandu")
        #expect(SearchText.fold("LIBRERÍA EL PÉNDULO") == "libreria el pendulo")
        #expect(SearchText.fold("Ça, Øre, İstanbul, Ŀl") == "ca, ore, istanbul, ll")
        // A digraph letter has no single bare letter: lowercased, caron and all.
        #expect(SearchText.fold("Ǆ") == "ǆ")
        // Not Latin letters with a diacritic: lowercased as they are.
        #expect(SearchText.fold("Straße") == "straße")
        #expect(SearchText.fold("ΩΜΕΓΑ") == "ωμεγα")
        #expect(SearchText.fold("7/42 FA20DE30-0B1E") == "7/42 fa20de30-0b1e")
    }

    @Test func combiningMarksAreDropped() {
        // "n" + COMBINING TILDE, "u" + COMBINING ACUTE: the same text as the precomposed letters.
        let decomposed = "N\u{303}andu\u{301}"
        #expect(decomposed.unicodeScalars.count == 7)
        #expect(SearchText.fold(decomposed) == "nandu")
        #expect(SearchText.fold(decomposed) == SearchText.fold("Ñandú"))
        #expect(SearchQuery("ñandú").matches(["Ferreteri\u{301}a N\u{303}andu\u{301}"]))
    }

    @Test func aQueryMatchesAnyFieldIgnoringCaseAndAccents() {
        let fields = ["Ferretería Ñandú", "Tornillos y más"]
        #expect(SearchQuery("nandu").matches(fields))
        #expect(SearchQuery("NANDU").matches(fields))
        #expect(SearchQuery("ÑANDÚ").matches(fields))
        #expect(SearchQuery("  tornillos  ").matches(fields))
        #expect(SearchQuery("mas").matches(fields))
        #expect(!SearchQuery("nandus").matches(fields))
        #expect(!SearchQuery("panaderia").matches(fields))
        // One field at a time: the end of one and the start of the next are not one text.
        #expect(!SearchQuery("nandu tornillos").matches(fields))
    }

    @Test func anEmptyQueryMatchesEverything() {
        #expect(SearchQuery("").isEmpty)
        #expect(SearchQuery(" \t ").isEmpty)
        #expect(SearchQuery(" \t ") == .everything)
        #expect(SearchQuery("").matches([]))
        #expect(SearchQuery("").matches(["x"]))
        #expect(!SearchQuery("x").matches([]))
        #expect(SearchQuery("  Ñandú ").text == "Ñandú")
    }

    @Test func aBeaconIsFoundByItsUUIDAndMajorMinor() {
        let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)
        let beacon = BeaconIdentity(uuid: uuid, major: 7, minor: 42)
        #expect(SearchQuery("7/42").matches(beacon.searchFields))
        #expect(SearchQuery("FA20DE30-0B1E").matches(beacon.searchFields))
        #expect(SearchQuery("be0c0de1").matches(beacon.searchFields))
        #expect(!SearchQuery("7/43").matches(beacon.searchFields))
        #expect(!SearchQuery("42/7").matches(beacon.searchFields))
    }
}
