import FaroCore

/// The store's problem (`StorageProblem`, a value from FaroCore) in the user's words.
extension StorageProblem {
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
