import FaroTestSupport
import Foundation
import Testing

/// Every feature from the keyboard (docs/keyboard.md): in the Spanish window under openbox, real key presses only
/// (Tests/UI/keyboard-walk.sh) open a place from the beacon list with Tab, the arrows and Enter, rate it with the
/// rating bar's keys and Enter, go back with Alt+Left and with Escape to the row that was opened, search for it
/// without accents (Ctrl+F; Escape brings every row back), open and close Preferences (Ctrl+, and Escape), the
/// primary menu (F10) and a row's menu (the Menu key, Shift+F10), whose "Detalles" page Escape closes; a saved copy
/// opened from Guardados and a visit opened from Lugares visitados go back there with the focus on their row; "Mis
/// datos de contacto" from the primary menu is filled with Tab and submitted with Enter (refused first, the focus on
/// the field at fault); "Enviar mis datos" sends a typed comment (Tab leaves it for the buttons); "Calibrar a 1 m…"
/// from the row's menu saves with Enter; Ctrl+? shows the shortcuts window and Escape closes it. The rating and the
/// details the keys gave reach the backend.
@Suite("Keyboard walk", .serialized)
struct KeyboardWalkTests {
    @Test func everyFeatureFromTheKeyboard() throws {
        let backend = try WindowTests.Backend()
        let data = try TemporaryDirectory("faro-keys")
        var env = try data.windowEnvironment(language: "es")
        env["GTK_A11Y"] = "atspi"
        env["FARO_PO"] = Paths.packageRoot + "/po/es.po"
        env["FARO_DATA"] = Paths.data
        let r = try ChildProcess.run(
            Paths.packageRoot + "/Tests/UI/keyboard-walk.sh",
            [Paths.executable("faro"), Paths.packageRoot + "/build/glib-2.0/schemas", backend.url],
            environment: env, timeout: 280)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        for step in [
            "open-site-from-list", "rate-site", "back-alt-left", "back-escape", "preferences", "main-menu", "row-menu",
            "saved-page", "visit", "contact-form", "send-details", "calibrate", "shortcuts-window", "keyboard-walk",
        ] {
            #expect(r.stdout.contains("OK \(step) "), "\(step): \(r.stdout)")
        }
        // The rating the keys chose, for the place the keys opened, went through the outbox to the backend.
        let rated = r.stdout.split(separator: "\n").first { $0.hasPrefix("RATED ") }
        let business = try #require(rated).dropFirst("RATED ".count).split(separator: " ").dropLast().joined(
            separator: " ")
        let ratings = try backend.waitForRows("rateme")
        #expect(ratings.count == 1, "\(ratings)")
        #expect(ratings.first?["calificacion"] as? Int == 4, "\(ratings)")
        #expect(ratings.first?["cliente"] as? String == business, "\(ratings) \(business)")
        // So did the details "Enviar mis datos" sent with the comment the keys typed, under the name the form kept.
        let contacts = try backend.waitForRows("contactame")
        #expect(contacts.count == 1, "\(contacts)")
        #expect(contacts.first?["comentario"] as? String == "Hola desde el teclado", "\(contacts)")
        #expect(contacts.first?["nombrecontacto"] as? String == "Ana Lopez", "\(contacts)")
        let sent = r.stdout.split(separator: "\n").first { $0.hasPrefix("SENT ") }
        #expect(sent?.hasPrefix("SENT \(contacts.first?["cliente"] as? String ?? "?") ") == true, "\(contacts)")
    }
}
