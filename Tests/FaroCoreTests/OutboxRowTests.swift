import Testing

@testable import FaroCore

@Suite struct OutboxRowTests {
    @Test func idsAreVersion4LowercaseAndUnique() {
        var random = SplitMix64(seed: 42)
        var seen = Set<String>()
        for _ in 0..<1000 {
            let id = OutboxRowID.make(using: &random)
            #expect(OutboxRowID.isValid(id), "\(id)")
            seen.insert(id)
        }
        #expect(seen.count == 1000)
        #expect(!OutboxRowID.isValid("A4B3C2D1-0000-4000-8000-000000000000"))
        #expect(!OutboxRowID.isValid("short"))
    }

    @Test func fechahoraIsUTCWithMilliseconds() {
        #expect(Fechahora.format(secondsSince1970: 0) == "1970-01-01T00:00:00.000Z")
        // 2026-11-29T14:03:07.123Z
        #expect(Fechahora.format(secondsSince1970: 1_795_960_987.123_9) == "2026-11-29T14:03:07.123Z")
        #expect(Fechahora.format(secondsSince1970: 951_782_400.5) == "2000-02-29T00:00:00.500Z")
        #expect(Fechahora.format(secondsSince1970: -0.001) == "1969-12-31T23:59:59.999Z")
    }

    @Test func bodiesUseExactlyTheContractFieldNames() throws {
        let registration = try BusinessRegistration.validate(
            nombre: " Ana ", email: "ana@ejemplo.mx",
            telefono: "(55) 1234-5678"
        ).get()
        #expect(
            OutboxSubmission.interested(registration).jsonBody(id: "x")
                == #"{"id":"x","nombre":"Ana","email":"ana@ejemplo.mx","telefono":"5512345678"}"#)
        let site = SiteIdentity(cliente: "Café \"La\" Parroquia", titulo: "Menú", url: "http://127.0.0.1/sitios/a/")
        let contact = try ContactDetails.validate(
            nombre: "Luis", email: "l@b.mx", telefono: "5511112222",
            empresa: "ACME"
        ).get()
        let c = OutboxSubmission.contactame(
            ContactRequest(
                site: site, contact: contact, comentario: "línea\nnueva",
                fechahora: "2026-11-29T14:03:07.123Z"))
        #expect(c.table == .contactame)
        #expect(
            c.jsonBody(id: "i")
                == #"{"id":"i","cliente":"Café \"La\" Parroquia","titulo":"Menú","fechahora":"2026-11-29T14:03:07.123Z","nombrecontacto":"Luis","email":"l@b.mx","telefono":"5511112222","empresa":"ACME","comentario":"línea\nnueva"}"#
        )
        let r = OutboxSubmission.rateme(
            SiteRating(site: site, imei: "35-209900-176148-1", calificacion: 4, fechahora: "f"))
        #expect(
            r.jsonBody(id: "j")
                == #"{"id":"j","cliente":"Café \"La\" Parroquia","titulo":"Menú","fechahora":"f","imei":"35-209900-176148-1","calificacion":4}"#
        )
        #expect(OutboxSubmission.validRating(0) && OutboxSubmission.validRating(5) && !OutboxSubmission.validRating(6))
    }
}
