import FaroCore

/// Why a calibration or a visit could not be stored or forgotten: the problem as a value the window words
/// (`StorageProblem.message`), and the store's English detail for logs and the terminal.
public struct ProfileStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problem: StorageProblem
    /// In English, for logs and the terminal; never shown in the window.
    public var description: String

    public init(_ problem: StorageProblem, detail: String) {
        self.problem = problem
        self.description = detail
    }
}
