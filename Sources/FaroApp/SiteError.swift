import FaroCore

/// Why a site action failed, in words for the user.
public struct SiteError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
