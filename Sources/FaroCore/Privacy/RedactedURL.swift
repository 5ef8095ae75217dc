/// A URL that has been through `DeviceIDURL.stripping(from:)`: the only form in which a URL may travel into an
/// error, a log line, the terminal or the screen. Errors hold this type instead of a `String`, so one cannot be made
/// with the device id in it.
public struct RedactedURL: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The URL without the device id.
    public let text: String

    public init(_ url: String) { text = DeviceIDURL.stripping(from: url) }

    public init(stringLiteral value: String) { self.init(value) }

    public var description: String { text }
}
