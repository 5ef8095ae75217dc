internal import CGtk
import FaroApp
import FaroCore

/// "Mis datos de contacto" and "Registrar mi negocio": the two forms of the primary menu, each a `FormDialog`
/// whose submit runs the use case and turns its typed error into inline messages.
@MainActor
enum ProfileForms {
    static func contactDetails(parent: UnsafeMutablePointer<GtkWidget>?, save: SaveContactDetails) {
        let current = save.current()
        let initial: [FormField: String] = [
            .nombre: current?.nombre ?? "", .email: current?.email ?? "", .telefono: current?.telefono ?? "",
            .empresa: current?.empresa ?? "",
        ]
        FormDialog(
            template: "contact-dialog", fields: [.nombre, .email, .telefono, .empresa], initial: initial,
            parent: parent
        ) { values in
            do throws(FormSubmissionError) {
                _ = try save(
                    nombre: values[.nombre] ?? "", email: values[.email] ?? "", telefono: values[.telefono] ?? "",
                    empresa: values[.empresa] ?? "")
                return nil
            } catch {
                return messages(error)
            }
        }.present()
    }

    /// `saved` runs after the row was committed to the outbox.
    static func registerBusiness(
        parent: UnsafeMutablePointer<GtkWidget>?, register: RegisterBusiness, saved: @escaping @MainActor () -> Void
    ) {
        FormDialog(template: "register-dialog", fields: [.nombre, .email, .telefono], initial: [:], parent: parent) {
            values in
            do throws(FormSubmissionError) {
                _ = try register(
                    nombre: values[.nombre] ?? "", email: values[.email] ?? "", telefono: values[.telefono] ?? "")
                saved()
                return nil
            } catch {
                return messages(error)
            }
        }.present()
    }

    private static func messages(_ error: FormSubmissionError) -> FormMessages {
        switch error {
        case .invalid(let errors): return FormMessages(errors, localize: I18n.localizer)
        case .storage(let failure):
            return FormMessages(byField: [
                .nombre: I18n.tr("Could not save: ") + failure.problem.message(I18n.localizer)
            ])
        }
    }
}
