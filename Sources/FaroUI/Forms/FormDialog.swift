internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// A modal form from a template (`Resources/ui/contact-dialog.ui`, `register-dialog.ui`): labelled entries with an
/// inline message under each, a note, Cancel and a default button. Fully keyboard-driven (mnemonics, Tab order,
/// Enter submits); every control has an accessible name. `submit` validates and stores; it returns the problems to
/// show, or nil when the form may close.
@MainActor
final class FormDialog {
    let dialog: UnsafeMutablePointer<GtkWidget>
    private var entries: [FormField: UnsafeMutablePointer<GtkWidget>] = [:]
    private var messages: [FormField: UnsafeMutablePointer<GtkWidget>] = [:]
    private let submit: ([FormField: String]) -> FormMessages?
    private var keepAlive: FormDialog?

    /// The form `template` with the entries of `fields`, filled with `initial`.
    init(
        template name: String, fields: [FormField], initial: [FormField: String],
        parent: UnsafeMutablePointer<GtkWidget>?, submit: @escaping ([FormField: String]) -> FormMessages?
    ) {
        self.submit = submit
        let template = Template(name)
        dialog = template.widget("dialog")
        if let parent { gtk_window_set_transient_for(cast(dialog), cast(parent)) }
        setAccessibleName(dialog, String(cString: gtk_window_get_title(cast(dialog))))
        for id in ["cancel", "accept"] { FormDialog.nameAfterLabel(template.widget(id)) }
        for field in fields {
            let entry = template.widget("entry-\(field.rawValue)")
            gtk_entry_set_text(cast(entry), initial[field] ?? "")
            let label = template.widget("label-\(field.rawValue)")
            setAccessibleName(entry, String(cString: gtk_label_get_text(cast(label))))
            entries[field] = entry
            messages[field] = template.widget("message-\(field.rawValue)")
        }
        Signal.connect(dialog, "response", int: { [weak self] response in self?.respond(response) })
    }

    /// A button's accessible name is its label without the mnemonic underscore.
    static func nameAfterLabel(_ button: UnsafeMutablePointer<GtkWidget>) {
        guard let label = gtk_button_get_label(cast(button)) else { return }
        setAccessibleName(button, String(cString: label).replacing("_", with: ""))
    }

    /// Shows the dialog; it keeps itself alive until it closes.
    func present() {
        keepAlive = self
        gtk_window_present(cast(dialog))
    }

    private func respond(_ response: Int32) {
        if response == GTK_RESPONSE_ACCEPT.rawValue {
            var values: [FormField: String] = [:]
            for (field, entry) in entries { values[field] = String(cString: gtk_entry_get_text(cast(entry))) }
            if let problems = submit(values) {
                show(problems)
                return
            }
        }
        gtk_widget_destroy(dialog)
        keepAlive = nil
    }

    /// Marks every failing field and moves the focus to the first one.
    private func show(_ problems: FormMessages) {
        var focused = false
        for (field, label) in messages {
            if let text = problems[field] {
                gtk_label_set_text(cast(label), text)
                gtk_widget_show(label)
                if let entry = entries[field] {
                    gtk_style_context_add_class(gtk_widget_get_style_context(entry), "error")
                    setAccessibleDescription(entry, text)
                }
            } else {
                gtk_widget_hide(label)
                if let entry = entries[field] {
                    gtk_style_context_remove_class(gtk_widget_get_style_context(entry), "error")
                    setAccessibleDescription(entry, "")
                }
            }
        }
        for field in FormField.allCases {
            if !focused, problems[field] != nil, let entry = entries[field] {
                gtk_widget_grab_focus(entry)
                focused = true
            }
        }
    }
}
