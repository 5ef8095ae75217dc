/// What went wrong with the profile database, as a value: the one list of kinds every layer passes up (FaroStore
/// gives it for its errors, the outbox queue and FaroApp's ports carry it), which the window words in the user's
/// language (`message(_:)`, in FaroApp); the terminal and the logs keep the store's English detail.
public enum StorageProblem: Equatable, Sendable {
    /// The file could not be opened or created.
    case cannotOpen
    /// The file is damaged or is not Faro's.
    case damaged
    /// Another program holds the database.
    case locked
    /// The file, its folder or the file system does not accept writes.
    case readOnly
    /// The disk is full.
    case diskFull
    /// A newer Faro wrote it.
    case newerVersion
    /// Any other failure of the database.
    case other
}
