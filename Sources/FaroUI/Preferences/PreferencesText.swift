internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The words of Preferences that depend on values.
@MainActor
enum PreferencesText {
    static func urlProblem(_ problem: BackendURLRule.Problem) -> String {
        switch problem {
        case .notAURL: return I18n.tr("This is not a backend URL; use one like https://example.azurewebsites.net.")
        case .notHTTPS:
            return I18n.tr(
                "The URL must start with https://; plain http is only allowed to this computer (127.0.0.1, ::1, localhost)."
            )
        }
    }

    /// The adapter name recordings and the demo are kept under (an identifier, never shown as such).
    static let recordingAdapter = "replay"

    /// The adapter as the window names it: its address, or "recording or demo".
    static func adapterName(_ adapter: String) -> String {
        adapter == recordingAdapter ? I18n.tr("Recording or demo") : adapter
    }

    static func offset(adapter: String, decibels: Double) -> String {
        let amount = String(cFormat: "%+.1f", decibels)
        if adapter == recordingAdapter {
            return I18n.localizer.format("Recordings and the demo read %@ dB from advertised powers.", amount)
        }
        return I18n.localizer.format("The adapter %@ reads %@ dB from advertised powers.", adapter, amount)
    }

    static func check(_ check: ConnectionCheck) -> String {
        switch check {
        case .connected(let places, let generation):
            let found =
                places.map { I18n.localizer.plural("Connected: %@ place.", "Connected: %@ places.", $0) }
                ?? I18n.tr("Connected; the server does not say how many places it has.")
            return found + " " + I18n.localizer.format("Tables protocol %@.", generation)
        case .refused(let status):
            return I18n.localizer.format("Refused (HTTP %@): check the app key (faro app-key set).", String(status))
        case .notHTTPS: return urlProblem(.notHTTPS)
        case .notAURL: return urlProblem(.notAURL)
        // The details are the network layer's English (for `faro` in a terminal); the window says what to do.
        case .noAnswer:
            return I18n.tr("No answer from the server. Check the network and the URL.")
        case .unexpected:
            return I18n.tr("The server answered, but not as a Faro backend.")
        }
    }
}
