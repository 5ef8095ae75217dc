import Testing

@testable import FaroCore

@Suite("Share links and the device-id URL rule")
struct ShareTests {
    @Test func deviceIDUsesQuestionMarkOrAmpersand() {
        #expect(
            DeviceIDURL.adding(deviceID: "356938035643809", to: "http://127.0.0.1:8080/sitios/cafe/")
                == "http://127.0.0.1:8080/sitios/cafe/?imei=356938035643809")
        #expect(
            DeviceIDURL.adding(deviceID: "356938035643809", to: "https://ejemplo.mx/p?lang=es")
                == "https://ejemplo.mx/p?lang=es&imei=356938035643809")
        #expect(DeviceIDURL.adding(deviceID: "1", to: "https://ejemplo.mx/p?") == "https://ejemplo.mx/p?imei=1")
    }

    @Test func deviceIDIsPercentEncodedAndGoesBeforeTheFragment() {
        #expect(
            DeviceIDURL.adding(deviceID: "a b&c=d/é", to: "https://ejemplo.mx/p#menu")
                == "https://ejemplo.mx/p?imei=a%20b%26c%3Dd%2F%C3%A9#menu")
    }

    @Test func anExistingIMEIIsReplacedNotDuplicated() {
        let once = DeviceIDURL.adding(deviceID: "111", to: "https://ejemplo.mx/p?imei=999&x=1")
        #expect(once == "https://ejemplo.mx/p?x=1&imei=111")
    }

    @Test func strippingRemovesOnlyTheDeviceID() {
        #expect(DeviceIDURL.stripping(from: "https://ejemplo.mx/p?imei=1") == "https://ejemplo.mx/p")
        #expect(
            DeviceIDURL.stripping(from: "https://ejemplo.mx/p?a=1&imei=2&b=3#x") == "https://ejemplo.mx/p?a=1&b=3#x")
        #expect(DeviceIDURL.stripping(from: "https://ejemplo.mx/p?IMEI=2") == "https://ejemplo.mx/p")
        #expect(DeviceIDURL.stripping(from: "https://ejemplo.mx/p?imeis=2") == "https://ejemplo.mx/p?imeis=2")
        #expect(DeviceIDURL.stripping(from: "https://ejemplo.mx/p") == "https://ejemplo.mx/p")
    }

    @Test(arguments: ["https://ejemplo.mx/p", "https://ejemplo.mx/p?a=1", "https://ejemplo.mx/p?a=1#f"])
    func addingThenStrippingGivesTheOriginal(_ url: String) {
        #expect(DeviceIDURL.stripping(from: DeviceIDURL.adding(deviceID: "x y", to: url)) == url)
    }

    @Test func percentEncodingKeepsOnlyUnreservedCharacters() {
        #expect(PercentEncoding.encodeComponent("AZaz09-._~") == "AZaz09-._~")
        #expect(
            PercentEncoding.encodeComponent("https://a.mx/?q=1&r=ñ") == "https%3A%2F%2Fa.mx%2F%3Fq%3D1%26r%3D%C3%B1")
        #expect(PercentEncoding.decode("a%20b%C3%B1%zz") == "a bñ%zz")
    }

    @Test func shareLinksCarryTheEncodedURLWithoutTheDeviceID() {
        let url = "http://127.0.0.1:8080/sitios/cafe/?x=1&imei=356938035643809"
        let encoded = "http%3A%2F%2F127.0.0.1%3A8080%2Fsitios%2Fcafe%2F%3Fx%3D1"
        let links = Dictionary(
            uniqueKeysWithValues: ShareLinks.all(url: url, title: "Café & pan").map { ($0.target, $0.link) })
        #expect(links[.copyLink] == "http://127.0.0.1:8080/sitios/cafe/?x=1")
        #expect(links[.email] == "mailto:?subject=Caf%C3%A9%20%26%20pan&body=Caf%C3%A9%20%26%20pan%20\(encoded)")
        #expect(links[.whatsapp] == "https://wa.me/?text=Caf%C3%A9%20%26%20pan%20\(encoded)")
        #expect(links[.telegram] == "https://t.me/share/url?url=\(encoded)&text=Caf%C3%A9%20%26%20pan")
        #expect(links[.facebook] == "https://www.facebook.com/sharer/sharer.php?u=\(encoded)")
        #expect(links[.x] == "https://x.com/intent/tweet?url=\(encoded)&text=Caf%C3%A9%20%26%20pan")
        #expect(links[.linkedin] == "https://www.linkedin.com/sharing/share-offsite/?url=\(encoded)")
        #expect(links.count == ShareTarget.allCases.count)
        for link in links.values { #expect(!link.contains("imei") && !link.contains("356938035643809")) }
    }

    @Test func shareLinksWithoutATitle() {
        #expect(
            ShareLinks.link(for: .email, url: "https://a.mx/")
                == "mailto:?subject=https%3A%2F%2Fa.mx%2F&body=https%3A%2F%2Fa.mx%2F")
        #expect(
            ShareLinks.link(for: .telegram, url: "https://a.mx/", title: "  ")
                == "https://t.me/share/url?url=https%3A%2F%2Fa.mx%2F")
    }

    @Test func appSpecificIDMatchesSystemdsKnownAnswer() throws {
        // systemd's test-id128.c: `systemd-id128 -a f03daaeb1c334b43a732172944bf772e show 51df0b4bc3b04c9780e299b98ca373b8`
        // gives 1dee5954e75c4d6fb96cc6c04ca18a86; this checks the parsing and the v4 marking around the HMAC.
        let machine = try AppSpecificID.parseMachineID("51df0b4bc3b04c9780e299b98ca373b8\n")
        #expect(machine.count == 16 && machine.first == 0x51 && machine.last == 0xb8)
        var digest = AppSpecificID.hexBytes("1dee5954e75c3d6fb96cc6c04ca18a86")  // version nibble 3 on purpose
        digest += [UInt8](repeating: 0xAB, count: 16)
        #expect(AppSpecificID.id(fromDigest: digest) == "1dee5954e75c4d6fb96cc6c04ca18a86")
    }

    @Test func malformedMachineIDsAreRefused() {
        #expect(throws: AppSpecificID.MachineIDError.uninitialized) {
            try AppSpecificID.parseMachineID("uninitialized\n")
        }
        #expect(throws: AppSpecificID.MachineIDError.uninitialized) {
            try AppSpecificID.parseMachineID(String(repeating: "0", count: 32))
        }
        #expect(throws: AppSpecificID.MachineIDError.self) { try AppSpecificID.parseMachineID("xyz") }
        #expect(throws: AppSpecificID.MachineIDError.self) {
            try AppSpecificID.parseMachineID(String(repeating: "g", count: 32))
        }
    }
}
