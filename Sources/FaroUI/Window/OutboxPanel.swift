internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The outbox panel (`Resources/ui/outbox-panel.ui`, rows from `outbox-row.ui`): every submission that waits or
/// was refused, with what it is, when, where it stands and the server's reason, and Reintentar / Descartar for each
/// row and for all; rows queued for another backend offer "send to this server" instead of Reintentar. Nothing is
/// deleted unless the user says so (and "Descartar todo" asks first).
@MainActor
final class OutboxPanel {
    private let template = Template("outbox-panel")
    private let dialog: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private let model: OutboxPanelModel
    private var shownRows: [UnsafeMutablePointer<GtkWidget>] = []
    private var keepAlive: OutboxPanel?
    /// Called after an action changed the outbox (the window redraws its line).
    var onChange: () -> Void = {}

    init(model: OutboxPanelModel, parent: UnsafeMutablePointer<GtkWidget>?) {
        self.model = model
        dialog = template.widget("dialog")
        list = template.widget("list")
        if let parent { gtk_window_set_transient_for(cast(dialog), cast(parent)) }
        setAccessibleName(dialog, I18n.tr("Pending submissions"))
        gtk_list_box_set_placeholder(cast(list), template.widget("empty"))
        for id in ["close", "retry-all", "move-all", "discard-all"] { FormDialog.nameAfterLabel(template.widget(id)) }
        Signal.connect(template.widget("retry-all"), "clicked") { [weak self] in self?.act { $0.retryAll() } }
        Signal.connect(template.widget("move-all"), "clicked") { [weak self] in self?.act { $0.moveAllHere() } }
        Signal.connect(template.widget("discard-all"), "clicked") { [weak self] in self?.confirmDiscardAll() }
        Signal.connect(dialog, "response", int: { [weak self] _ in self?.close() })
        model.refresh()
        render()
    }

    func present() {
        keepAlive = self
        gtk_window_present(cast(dialog))
    }

    private func close() {
        gtk_widget_destroy(dialog)
        keepAlive = nil
    }

    private func act(_ body: (OutboxPanelModel) -> Void) {
        body(model)
        render()
        onChange()
    }

    private func confirmDiscardAll() {
        let count = model.rows.count
        guard count > 0 else { return }
        let question = I18n.localizer.plural(
            "Discard %@ submission? It will never reach the server.",
            "Discard %@ submissions? They will never reach the server.", count)
        let view = Template("confirm-dialog")
        let confirm = view.widget("dialog")
        gtk_window_set_transient_for(cast(confirm), cast(dialog))
        gtk_window_set_title(cast(confirm), I18n.tr("Discard all"))
        setAccessibleName(confirm, I18n.tr("Discard all"))
        gtk_label_set_text(cast(view.widget("question")), question)
        gtk_button_set_label(cast(view.widget("accept")), I18n.tr("_Discard"))
        for id in ["cancel", "accept"] { FormDialog.nameAfterLabel(view.widget(id)) }
        Signal.connect(
            confirm, "response",
            int: { [weak self] response in
                gtk_widget_destroy(confirm)
                if response == GTK_RESPONSE_ACCEPT.rawValue { self?.act { $0.discardAll() } }
            })
        gtk_window_present(cast(confirm))
    }

    /// Rebuilds the rows from the model (a handful at most: the outbox is small).
    private func render() {
        for row in shownRows { gtk_container_remove(cast(list), row) }
        shownRows = []
        let summary = model.summary
        var parts = [
            outboxStatusText(
                OutboxState(pending: summary.pending, failed: summary.failed, queuedElsewhere: summary.queuedElsewhere),
                localize: I18n.localizer) ?? I18n.tr("Nothing is waiting: every submission reached the server.")
        ]
        if summary.queuedElsewhere > 0 {
            parts.append(I18n.tr("Rows queued for another server go only there, unless you send them to this one."))
        }
        gtk_label_set_text(cast(template.widget("summary")), parts.joined(separator: "\n"))
        let problem = template.widget("problem")
        if let failure = model.problem {
            gtk_label_set_text(
                cast(problem), I18n.tr("The outbox could not be read: ") + failure.message(I18n.localizer))
            gtk_widget_show(problem)
        } else {
            gtk_widget_hide(problem)
        }
        gtk_widget_set_visible(template.widget("move-all"), summary.queuedElsewhere > 0 ? 1 : 0)
        gtk_widget_set_sensitive(template.widget("retry-all"), summary.pending + summary.failed > 0 ? 1 : 0)
        gtk_widget_set_sensitive(template.widget("discard-all"), model.rows.isEmpty ? 0 : 1)
        for row in model.rows { add(row) }
    }

    private func add(_ entry: OutboxPanelRow) {
        let view = Template("outbox-row")
        let row = view.widget("row")
        let what =
            [OutboxPanel.title(entry.table), entry.subject, SavedListPage.localDateTime(entry.createdAt)]
            .compactMap { $0 }.joined(separator: " · ")
        gtk_label_set_text(cast(view.widget("title")), what)
        gtk_label_set_text(cast(view.widget("detail")), OutboxPanel.detail(entry))
        let act = view.widget("act")
        let discard = view.widget("discard")
        if entry.canMove {
            gtk_button_set_label(cast(act), I18n.tr("Send to this server"))
            setAccessibleName(act, I18n.localizer.format("Send %@ to this server", what))
            Signal.connect(act, "clicked") { [weak self] in self?.act { $0.moveHere(entry.id) } }
        } else {
            gtk_button_set_label(cast(act), I18n.tr("Retry"))
            setAccessibleName(act, I18n.localizer.format("Retry %@", what))
            Signal.connect(act, "clicked") { [weak self] in self?.act { $0.retry(entry.id) } }
        }
        setAccessibleName(discard, I18n.localizer.format("Discard %@", what))
        Signal.connect(discard, "clicked") { [weak self] in self?.act { $0.discard(entry.id) } }
        setAccessibleName(row, what + ", " + OutboxPanel.detail(entry))
        gtk_container_add(cast(list), row)
        shownRows.append(row)
    }

    /// What a row is, in the user's words.
    static func title(_ table: OutboxTable) -> String {
        switch table {
        case .interested: return I18n.tr("Business registration")
        case .contactame: return I18n.tr("Your contact details for a site")
        case .rateme: return I18n.tr("A site rating")
        }
    }

    /// Where a row stands and, on a line of its own, why.
    static func detail(_ row: OutboxPanelRow) -> String {
        let reason = row.reason.map { "\n" + OutboxPanel.reason($0) } ?? ""
        switch row.status {
        case .pending(let attempts):
            if attempts == 0 && row.reason == nil { return I18n.tr("Waiting to be sent") }
            return I18n.localizer.plural("Not sent yet (%@ attempt)", "Not sent yet (%@ attempts)", attempts) + reason
        case .failed:
            return I18n.tr("Refused by the server") + reason
        case .queuedForAnotherBackend(let backend):
            return I18n.localizer.format("Waiting for another server (%@)", backend)
        }
    }

    /// Why a row waits or was refused, in the user's words (the server's own message is quoted as it is).
    static func reason(_ reason: OutboxReason) -> String {
        let l = I18n.localizer
        func says(_ text: String, _ message: String) -> String {
            message.isEmpty ? text : l.format("%@ The server says: “%@”", text, message)
        }
        switch reason {
        case .unreachable:
            return I18n.tr("The server could not be reached.")
        case .serverTrouble(let status, let message):
            return says(l.format("The server had a problem (HTTP %@); Faro will try again.", String(status)), message)
        case .redirect(let status, _):
            return l.format(
                "The server sent Faro to another address (HTTP %@); check the server address in Preferences.",
                String(status))
        case .keyRefused(let status, let message):
            return says(
                l.format("The server refused the app key (HTTP %@); check the app key in Preferences.", String(status)),
                message)
        case .tableMissing(let table, let message):
            return says(l.format("The server has no table “%@” (HTTP 404).", table), message)
        case .refused(let status, let message):
            return says(l.format("The server refused it (HTTP %@).", String(status)), message)
        case .conflict:
            return I18n.tr("The server already holds a different submission with the same identifier.")
        case .gaveUpAfterErrors(let count, let last):
            return l.plural("Faro gave up after %@ attempt.", "Faro gave up after %@ attempts.", count) + " "
                + OutboxPanel.reason(last)
        case .gaveUpAfterDays(let days, let last):
            return l.plural("Faro gave up after waiting %@ day.", "Faro gave up after waiting %@ days.", days) + " "
                + OutboxPanel.reason(last)
        }
    }
}
