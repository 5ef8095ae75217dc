import FaroApp
import FaroCore
import Testing

/// The window's one line about the backend: a key that could not be read is said ahead of what the backend answers
/// (it is why the backend refuses), and in the user's language.
@Suite("The backend line")
struct BackendProblemTextTests {
    static let english = Localizer({ $0 })
    static let refused = CatalogReachability.appKeyRefused(reason: "the backend refused the app key (HTTP 401)")
    static let locked = "The keyring that keeps the app key is locked; unlock it and press Retry."

    @Test func aLockedKeyringComesBeforeTheRefusalItCauses() {
        #expect(
            backendProblemText(Self.refused, outbox: nil, appKey: .keyringLocked, localize: Self.english) == Self.locked
        )
        let offline = OutboxState(pending: 1, failed: 0, unreachable: "cannot reach the backend")
        #expect(
            backendProblemText(
                .unreachable(reason: "down"), outbox: offline, appKey: .keyringLocked, localize: Self.english)
                == Self.locked)
        #expect(
            backendProblemText(.reachable, outbox: nil, appKey: .unreadable, localize: Self.english)
                == "The app key could not be read; submissions wait until it can.")
    }

    @Test func withTheKeyReadTheBackendSpeaks() {
        #expect(
            backendProblemText(Self.refused, outbox: nil, appKey: nil, localize: Self.english)
                == "The server refused the app key; submissions wait until it is set.")
        #expect(backendProblemText(.reachable, outbox: nil, appKey: nil, localize: Self.english) == nil)
    }

    @Test func theLineIsInSpanishWhereTheCatalogSaysSo() throws {
        let es = try TranslationTests.catalog(TranslationTests.root + "/po/es.po")
        let spanish = Localizer({ es[$0] ?? $0 })
        let text = backendProblemText(.reachable, outbox: nil, appKey: .keyringLocked, localize: spanish)
        #expect(text == "El llavero que guarda la clave de la app está bloqueado; desbloquéalo y pulsa Reintentar.")
    }
}
