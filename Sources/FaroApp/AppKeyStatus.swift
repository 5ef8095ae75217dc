/// Why the stored app key is not in use. The window's line says it ahead of what the backend answers, since a key
/// that was never read is what the backend then refuses.
public enum AppKeyProblem: Equatable, Sendable {
    /// The keyring that keeps the key is locked. Faro raises no password prompt of its own: the user unlocks the
    /// keyring and presses Reintentar, which reads the key again.
    case keyringLocked
    /// The Secret Service or the key file could not be read (the reason went to stderr).
    case unreadable
}

/// Whether the app key could be read, for the window's line. Whoever reads the key (at start and on every
/// reload) sets it on the main thread; the window reads it when it draws its status.
@MainActor
public final class AppKeyStatus {
    public var problem: AppKeyProblem? {
        didSet { if problem != oldValue { onChange?() } }
    }
    /// Called when `problem` changes (the window redraws its line).
    public var onChange: (() -> Void)?

    public init(problem: AppKeyProblem? = nil) { self.problem = problem }
}
