import Testing

@testable import FaroCore

@Suite("Form validation")
struct FormValidationTests {
    @Test(arguments: ["5512345678", "55 1234 5678", "(55) 1234-5678", "55-12-34-56-78", " 55.1234.5678 "])
    func phonesWithSeparatorsAreAcceptedAndStripped(_ input: String) throws {
        #expect(try FormRules.phone(input).get() == "5512345678")
    }

    @Test func phoneProblems() {
        #expect(FormRules.phone("") == .failure(FieldProblem(field: .telefono, reason: .required)))
        #expect(
            FormRules.phone("551234567") == .failure(FieldProblem(field: .telefono, reason: .phoneDigits(count: 9))))
        #expect(
            FormRules.phone("+52 55 1234 5678") == .failure(FieldProblem(field: .telefono, reason: .phoneCharacters)))
        #expect(
            FormRules.phone("55123456789") == .failure(FieldProblem(field: .telefono, reason: .phoneDigits(count: 11))))
        #expect(FormRules.phone("55l2345678") == .failure(FieldProblem(field: .telefono, reason: .phoneCharacters)))
        // Non-ASCII digits are not phone digits.
        #expect(FormRules.phone("５５12345678") == .failure(FieldProblem(field: .telefono, reason: .phoneCharacters)))
    }

    @Test(arguments: ["ana@ejemplo.com", "ana.lopez+faro@correo.ejemplo.mx", "JOSÉ@Café.com.mx"])
    func validEmails(_ input: String) throws {
        #expect(try FormRules.email(input).get() == input)
    }

    @Test(arguments: [
        "", "ana", "ana@", "@ejemplo.com", "ana@ejemplo", "ana@@ejemplo.com", "ana lopez@ejemplo.com",
        "ana@ejemplo..com", "ana@-ejemplo.com", ".ana@ejemplo.com", "ana@ejemplo.c0m",
    ])
    func invalidEmails(_ input: String) {
        #expect(throws: FieldProblem.self) { try FormRules.email(input).get() }
    }

    @Test func namesAreTrimmedRequiredAndBounded() throws {
        #expect(try FormRules.name("  Ana López  ").get() == "Ana López")
        #expect(FormRules.name("   ") == .failure(FieldProblem(field: .nombre, reason: .required)))
        let long = String(repeating: "a", count: 101)
        #expect(FormRules.name(long) == .failure(FieldProblem(field: .nombre, reason: .tooLong(limit: 100))))
    }

    @Test func contactDetailsReportEveryProblemAtOnce() {
        let result = ContactDetails.validate(nombre: "", email: "nope", telefono: "123", empresa: "")
        guard case .failure(let errors) = result else {
            Issue.record("invalid contact details were accepted")
            return
        }
        #expect(errors.problems.map(\.field) == [.nombre, .email, .telefono])
        #expect(errors.problem(for: .telefono)?.reason == .phoneDigits(count: 3))
        #expect(errors.problem(for: .empresa) == nil)
    }

    @Test func contactDetailsCleaned() throws {
        let details = try ContactDetails.validate(
            nombre: " Ana ", email: "ana@ejemplo.com", telefono: "(55) 1234-5678",
            empresa: " Faro SA "
        ).get()
        #expect(
            details
                == ContactDetails(nombre: "Ana", email: "ana@ejemplo.com", telefono: "5512345678", empresa: "Faro SA"))
    }

    @Test func businessRegistration() throws {
        let ok = try BusinessRegistration.validate(nombre: "Café", email: "cafe@ejemplo.mx", telefono: "55 1234 5678")
            .get()
        #expect(ok.telefono == "5512345678")
        #expect(throws: FormErrors.self) {
            try BusinessRegistration.validate(nombre: "Café", email: "cafe@ejemplo.mx", telefono: "").get()
        }
    }

    @Test func messagesAreEnglishMsgids() {
        #expect(FieldProblem(field: .telefono, reason: .phoneDigits(count: 9)).message.contains("10 digits"))
        #expect(FieldProblem(field: .email, reason: .invalidEmail).description.hasPrefix("email:"))
    }
}
