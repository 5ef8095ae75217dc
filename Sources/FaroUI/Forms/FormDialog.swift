internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// A modal form: labelled entries with an inline message under each, an optional note, Cancel and a default
/// button. Fully keyboard-driven (mnemonics, Tab order, Enter submits); every control has an accessible name.
/// `submit` validates and stores; it returns the problems to show, or nil when the form may close.
@MainActor
final class FormDialog {
    struct Field {
        var field: FormField
        /// The label, with a mnemonic underscore ("_Name").
        var label: String
        var purpose: GtkInputPurpose
        var initial: String
    }

    let dialog: UnsafeMutablePointer<GtkWidget>
    private var entries: [FormField: UnsafeMutablePointer<GtkWidget>] = [:]
    private var messages: [FormField: UnsafeMutablePointer<GtkWidget>] = [:]
    private let submit: ([FormField: String]) -> FormMessages?
    private var keepAlive: FormDialog?

    init(
        parent: UnsafeMutablePointer<GtkWidget>?, title: String, accept: String, fields: [Field], note: String?,
        submit: @escaping ([FormField: String]) -> FormMessages?
    ) {
        self.submit = submit
        dialog = gtk_dialog_new()
        gtk_window_set_title(cast(dialog), title)
        gtk_window_set_modal(cast(dialog), 1)
        if let parent { gtk_window_set_transient_for(cast(dialog), cast(parent)) }
        gtk_window_set_default_size(cast(dialog), 380, -1)
        setAccessibleName(dialog, title)
        let cancel = gtk_dialog_add_button(cast(dialog), I18n.tr("_Cancel"), GTK_RESPONSE_CANCEL.rawValue)
        let ok = gtk_dialog_add_button(cast(dialog), accept, GTK_RESPONSE_ACCEPT.rawValue)
        setAccessibleName(cancel, I18n.tr("Cancel"))
        setAccessibleName(ok, accept.replacing("_", with: ""))
        gtk_dialog_set_default_response(cast(dialog), GTK_RESPONSE_ACCEPT.rawValue)
        if let ok { gtk_style_context_add_class(gtk_widget_get_style_context(ok), "suggested-action") }

        let grid = gtk_grid_new()
        gtk_grid_set_row_spacing(cast(grid), 4)
        gtk_grid_set_column_spacing(cast(grid), 12)
        gtk_container_set_border_width(cast(grid), 12)
        var row: Int32 = 0
        for f in fields {
            let label = gtk_label_new_with_mnemonic(f.label)
            gtk_label_set_xalign(cast(label), 1)
            let entry = gtk_entry_new()
            gtk_entry_set_text(cast(entry), f.initial)
            gtk_entry_set_input_purpose(cast(entry), f.purpose)
            gtk_entry_set_activates_default(cast(entry), 1)
            gtk_widget_set_hexpand(entry, 1)
            gtk_label_set_mnemonic_widget(cast(label), entry)
            setAccessibleName(entry, f.label.replacing("_", with: ""))
            let message = gtk_label_new(nil)
            gtk_label_set_xalign(cast(message), 0)
            gtk_label_set_line_wrap(cast(message), 1)
            gtk_style_context_add_class(gtk_widget_get_style_context(message), "error")
            gtk_widget_set_no_show_all(message, 1)
            gtk_grid_attach(cast(grid), label, 0, row, 1, 1)
            gtk_grid_attach(cast(grid), entry, 1, row, 1, 1)
            gtk_grid_attach(cast(grid), message, 1, row + 1, 1, 1)
            entries[f.field] = entry
            messages[f.field] = message
            row += 2
        }
        if let note {
            let label = gtk_label_new(note)
            gtk_label_set_line_wrap(cast(label), 1)
            gtk_label_set_max_width_chars(cast(label), 40)
            gtk_label_set_xalign(cast(label), 0)
            gtk_style_context_add_class(gtk_widget_get_style_context(label), "dim-label")
            gtk_widget_set_margin_top(label, 8)
            gtk_grid_attach(cast(grid), label, 0, row, 2, 1)
        }
        gtk_box_pack_start(cast(gtk_dialog_get_content_area(cast(dialog))), grid, 1, 1, 0)
        Signal.connect(dialog, "response", int: { [weak self] response in self?.respond(response) })
    }

    /// Shows the dialog; it keeps itself alive until it closes.
    func present() {
        keepAlive = self
        gtk_widget_show_all(dialog)
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
