/// Why a calibration or a visit could not be stored or forgotten, in words for the user.
public struct ProfileStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
