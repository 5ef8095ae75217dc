/// What went wrong with the profile database, as a value: the window words it in the user's language
/// (`message(_:)`), the terminal and the logs keep the store's English detail.
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

    /// In the user's language.
    public func message(_ localize: Localizer) -> String {
        switch self {
        case .cannotOpen: return localize("Faro's database could not be opened.")
        case .damaged: return localize("Faro's database is damaged.")
        case .locked: return localize("Another program is using Faro's database; try again.")
        case .readOnly: return localize("Faro's database is read-only.")
        case .diskFull: return localize("The disk is full.")
        case .newerVersion: return localize("A newer Faro wrote this database; update Faro.")
        case .other: return localize("Faro's database failed.")
        }
    }
}
