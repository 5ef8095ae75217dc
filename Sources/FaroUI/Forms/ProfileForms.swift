internal import CGtk
import FaroApp
import FaroCore

/// "Mis datos de contacto" and "Registrar mi negocio": the two forms of the primary menu, each a `FormDialog`
/// whose submit runs the use case and turns its typed error into inline messages.
@MainActor
enum ProfileForms {
    static func contactDetails(parent: UnsafeMutablePointer<GtkWidget>?, save: SaveContactDetails) {
        let current = save.current()
        let fields: [FormDialog.Field] = [
            .init(
                field: .nombre, label: I18n.tr("_Name"), purpose: GTK_INPUT_PURPOSE_NAME, initial: current?.nombre ?? ""
            ),
            .init(
                field: .email, label: I18n.tr("_E-mail"), purpose: GTK_INPUT_PURPOSE_EMAIL,
                initial: current?.email ?? ""),
            .init(
                field: .telefono, label: I18n.tr("_Phone"), purpose: GTK_INPUT_PURPOSE_PHONE,
                initial: current?.telefono ?? ""),
            .init(
                field: .empresa, label: I18n.tr("C_ompany"), purpose: GTK_INPUT_PURPOSE_FREE_FORM,
                initial: current?.empresa ?? ""),
        ]
        FormDialog(
            parent: parent, title: I18n.tr("My contact details"), accept: I18n.tr("_Save"), fields: fields,
            note: I18n.tr(contactDisclaimerMsgid)
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
        let fields: [FormDialog.Field] = [
            .init(field: .nombre, label: I18n.tr("_Name"), purpose: GTK_INPUT_PURPOSE_NAME, initial: ""),
            .init(field: .email, label: I18n.tr("_E-mail"), purpose: GTK_INPUT_PURPOSE_EMAIL, initial: ""),
            .init(field: .telefono, label: I18n.tr("_Phone"), purpose: GTK_INPUT_PURPOSE_PHONE, initial: ""),
        ]
        FormDialog(
            parent: parent, title: I18n.tr("Register my business"), accept: I18n.tr("_Send"), fields: fields,
            note: I18n.tr("We will contact you to add your business to Faro.")
        ) { values in
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
        case .storage(let failure): return FormMessages(byField: [.nombre: I18n.tr("Could not save: ") + "\(failure)"])
        }
    }
}
