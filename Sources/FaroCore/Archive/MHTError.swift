/// Why an MHT archive was refused. Every case says what was wrong in words a user can act on ("the file is cut
/// short: save the page again"), and where it was found.
public enum MHTError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file has no MIME header block or its top-level type is not multipart.
    case notAnArchive(String)
    /// The top-level (or a nested) multipart has no `boundary` parameter.
    case missingBoundary
    /// The declared boundary never starts a line, so no part can be found.
    case boundaryNotFound(String)
    /// The archive ends before the closing delimiter `--boundary--`.
    case truncated
    /// A part is malformed (headers never end, bad base64, an unknown transfer encoding).
    case malformedPart(index: Int, reason: String)
    /// The file is larger than the reader accepts.
    case tooLarge(bytes: Int, limit: Int)
    /// More parts than the reader accepts.
    case tooManyParts(limit: Int)
    /// Multiparts nested deeper than the reader accepts.
    case nestedTooDeep(limit: Int)
    /// No part can be the page: no HTML and nothing else that is not an image, script or stylesheet.
    case noMainDocument

    public var description: String {
        switch self {
        case .notAnArchive(let why): return "not an MHT archive: \(why)"
        case .missingBoundary: return "not a valid MHT archive: the multipart Content-Type has no boundary parameter"
        case .boundaryNotFound(let boundary):
            return "not a valid MHT archive: the boundary \"\(boundary)\" declared in the header never starts a part"
        case .truncated:
            return "the MHT archive is cut short (no closing boundary): the file is incomplete, save the page again"
        case .malformedPart(let index, let reason): return "the MHT archive's part \(index + 1) is damaged: \(reason)"
        case .tooLarge(let bytes, let limit):
            return "the MHT archive is too large (\(bytes) bytes; Faro opens archives up to \(limit) bytes)"
        case .tooManyParts(let limit): return "the MHT archive has too many parts (Faro opens up to \(limit))"
        case .nestedTooDeep(let limit): return "the MHT archive nests multiparts more than \(limit) levels deep"
        case .noMainDocument: return "the MHT archive holds no page (no HTML part)"
        }
    }
}

/// The reader's limits: big enough for any saved microsite, small enough that a hostile file cannot exhaust memory.
public struct MHTLimits: Sendable, Equatable {
    /// The largest archive Faro keeps: "Guardar" refuses to write a larger one, and the reader refuses to open a
    /// larger one, so a page that could be saved can always be opened again.
    public static let archiveMaxBytes = 64 << 20

    public var maxBytes: Int
    public var maxParts: Int
    public var maxDepth: Int
    public var maxHeaderBytes: Int

    public init(
        maxBytes: Int = MHTLimits.archiveMaxBytes, maxParts: Int = 4096, maxDepth: Int = 8,
        maxHeaderBytes: Int = 64 << 10
    ) {
        self.maxBytes = maxBytes
        self.maxParts = maxParts
        self.maxDepth = maxDepth
        self.maxHeaderBytes = maxHeaderBytes
    }

    public static let standard = MHTLimits()
}
