import FaroApp
import FaroCore
import Testing

/// Memory-backed stores for the use cases: what was committed, with the clock's time; a switch to fail like a
/// locked database.
final class MemoryStores: ContactProfileStore, OutboxWriter, SiteFlags, @unchecked Sendable {
    var contact: ContactDetails?
    var savedAt: Double?
    var rows: [(submission: OutboxSubmission, time: Double, mark: SiteMark?)] = []
    var sent: Set<String> = []
    var ratings: [String: Int] = [:]
    var failing = false

    func loadContactDetails() throws(StorageFailure) -> ContactDetails? {
        if failing { throw StorageFailure(.locked, detail: "database is locked") }
        return contact
    }

    func saveContactDetails(_ details: ContactDetails, at time: Double) throws(StorageFailure) {
        if failing { throw StorageFailure(.locked, detail: "database is locked") }
        contact = details
        savedAt = time
    }

    func commit(_ submission: OutboxSubmission, at time: Double, marking mark: SiteMark?) throws(StorageFailure)
        -> String
    {
        if failing { throw StorageFailure(.locked, detail: "database is locked") }
        rows.append((submission, time, mark))
        switch mark {
        case .contactSent(let url): sent.insert(url)
        case .rated(let url, let stars): ratings[url] = stars
        case nil: break
        }
        return "row-\(rows.count)"
    }

    func contactSent(to url: String) throws(StorageFailure) -> Bool { sent.contains(url) }
    func rating(of url: String) throws(StorageFailure) -> Int? { ratings[url] }
}

@Suite("Use cases")
struct UseCaseTests {
    let stores = MemoryStores()
    /// 2026-11-29T14:03:07.123Z.
    let clock: @Sendable () -> Double = { 1_795_960_987.123 }
    var cases: FaroUseCases {
        FaroUseCases(profile: stores, outbox: stores, flags: stores, deviceID: "a1b2c3", clock: clock)
    }
    let place = CatalogPlace(
        identity: BeaconIdentity(uuid: BeaconUUID(high: 1, low: 2), major: 1, minor: 2), cliente: "Café La Parroquia",
        titulo: "Café de olla", url: "https://example.com/cafe")
    let ana = try? ContactDetails.validate(
        nombre: "Ana", email: "ana@example.com", telefono: "5512345678", empresa: ""
    ).get()

    @Test func contactDetailsAreValidatedBeforeAnythingIsKept() throws {
        #expect(throws: FormSubmissionError.self) {
            try cases.saveContactDetails(nombre: "", email: "no", telefono: "12", empresa: "")
        }
        #expect(stores.contact == nil)
        do throws(FormSubmissionError) {
            _ = try cases.saveContactDetails(nombre: "Ana", email: "x", telefono: "55 1234 5678", empresa: "")
            Issue.record("an invalid e-mail was accepted")
        } catch {
            guard case .invalid(let errors) = error else { throw error }
            #expect(errors.problems.map(\.field) == [.email])
        }
        let saved = try cases.saveContactDetails(
            nombre: " Ana ", email: "ana@example.com", telefono: "(55) 1234-5678", empresa: "")
        #expect(saved.telefono == "5512345678")
        #expect(stores.contact == saved)
        #expect(stores.savedAt == clock())
    }

    @Test func aStorageFailureIsReportedAsSuch() {
        stores.failing = true
        do throws(FormSubmissionError) {
            _ = try cases.registerBusiness(nombre: "Ana", email: "ana@example.com", telefono: "5512345678")
            Issue.record("a failing store accepted the row")
        } catch {
            #expect(error == .storage(StorageFailure(.locked, detail: "database is locked")))
        }
    }

    @Test func aStorageProblemIsWordedByTheLocalizerNotWithTheStoresEnglish() {
        let spanish = Localizer { $0 == "Another program is using Faro's database; try again." ? "EN USO" : "«\($0)»" }
        let error = SiteFeedbackError.storage(StorageFailure(.locked, detail: "database is locked"))
        #expect(error.message(spanish) == "«Could not save: »EN USO")
        #expect(!error.message(spanish).contains("database is locked"))
    }

    @Test func registeringCommitsOneInterestedRow() throws {
        let id = try cases.registerBusiness(nombre: "Ana", email: "ana@example.com", telefono: "55-1234-5678")
        #expect(id == "row-1")
        #expect(stores.rows.count == 1)
        #expect(
            stores.rows[0].submission
                == .interested(
                    try BusinessRegistration.validate(nombre: "Ana", email: "ana@example.com", telefono: "5512345678")
                        .get()))
        #expect(stores.rows[0].mark == nil)
    }

    @Test func sendingDetailsNeedsThemAndHappensOncePerSite() throws {
        #expect(cases.sendContactDetails.offer(for: place) == nil)
        #expect(throws: SiteFeedbackError.noContactDetails) {
            try cases.sendContactDetails(to: place, comentario: "")
        }
        stores.contact = ana
        #expect(cases.sendContactDetails.offer(for: place) == false)
        try cases.sendContactDetails(to: place, comentario: "  Llámenme por la tarde  ")
        let row = try #require(stores.rows.first)
        #expect(row.mark == .contactSent(url: place.url))
        #expect(
            row.submission
                == .contactame(
                    ContactRequest(
                        site: SiteIdentity(cliente: "Café La Parroquia", titulo: "Café de olla", url: place.url),
                        contact: try #require(ana), comentario: "Llámenme por la tarde",
                        fechahora: "2026-11-29T14:03:07.123Z")))
        #expect(cases.sendContactDetails.offer(for: place) == true)
        #expect(throws: SiteFeedbackError.alreadyDone) { try cases.sendContactDetails(to: place, comentario: "") }
        #expect(stores.rows.count == 1)
    }

    @Test func aTooLongCommentIsRefusedWithItsReason() {
        stores.contact = ana
        let long = String(repeating: "a", count: FormRules.maxCommentLength + 1)
        do throws(SiteFeedbackError) {
            try cases.sendContactDetails(to: place, comentario: long)
            Issue.record("a comment over the limit was queued")
        } catch {
            guard case .invalidComment(let problem) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(problem.field == .comentario)
            #expect(error.message(.english).contains(String(FormRules.maxCommentLength)))
        }
        #expect(stores.rows.isEmpty)
    }

    @Test func ratingIsZeroToFiveStarsOnceWithTheDeviceID() throws {
        #expect(cases.rateSite.isOffered(for: place))
        #expect(throws: SiteFeedbackError.invalidRating(6)) { try cases.rateSite(place, stars: 6) }
        #expect(throws: SiteFeedbackError.invalidRating(-1)) { try cases.rateSite(place, stars: -1) }
        try cases.rateSite(place, stars: 0)
        #expect(
            stores.rows.first?.submission
                == .rateme(
                    SiteRating(
                        site: OutboxRows.site(place), imei: "a1b2c3", calificacion: 0,
                        fechahora: "2026-11-29T14:03:07.123Z")))
        #expect(stores.rows.first?.mark == .rated(url: place.url, rating: 0))
        #expect(!cases.rateSite.isOffered(for: place))
        #expect(throws: SiteFeedbackError.alreadyDone) { try cases.rateSite(place, stars: 5) }
        #expect(stores.rows.count == 1)
    }
}
