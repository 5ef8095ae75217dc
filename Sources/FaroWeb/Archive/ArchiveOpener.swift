import FaroCore
import FoundationEssentials
import Glibc

/// A saved page opened for reading: the archive and its readable document. Everything comes from the archive's
/// bytes; nothing is fetched.
public struct OpenedArchive: Sendable {
    public var archive: MHTArchive
    public var document: ReadableDocument

    /// The stored bytes of an image the document shows (by its absolute URL, or `cid:`), for the GTK view.
    public func imageData(for source: String) -> [UInt8]? { archive.resource(for: source)?.body }
}

/// Why a saved archive could not be opened.
public enum ArchiveOpenError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case invalid(MHTError)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .invalid(let error): return error.description
        }
    }
}

/// Opens saved pages (Guardados, `faro show`) with no network access at all: MHT bytes → MHTReader → libxml2
/// (the main part's declared charset) → readable document.
public enum ArchiveOpener {
    public static func open(_ bytes: [UInt8], limits: MHTLimits = .standard) throws(ArchiveOpenError) -> OpenedArchive {
        let archive: MHTArchive
        do { archive = try MHTReader.read(bytes, limits: limits) } catch { throw .invalid(error) }
        let main = archive.main
        let base = main.contentLocation ?? archive.location
        var document: ReadableDocument
        if main.isHTML {
            document = HTMLParser.readableDocument(main.body, charset: main.charset, url: base)
        } else {
            document = ReadableDocument(title: nil, blocks: [.preformatted(main.text)])
        }
        if document.title == nil, let subject = archive.subject, !subject.isEmpty { document.title = subject }
        return OpenedArchive(archive: archive, document: document)
    }

    public static func open(path: String, limits: MHTLimits = .standard) throws(ArchiveOpenError) -> OpenedArchive {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: Self.reason(errno)) }
        defer { close(fd) }
        // Read at most one byte past the limit, so a huge file is refused without loading it.
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= limits.maxBytes {
            let wanted = min(chunk.count, limits.maxBytes + 1 - bytes.count)
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, wanted) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: Self.reason(errno))
            }
            if got == 0 { break }
            bytes += chunk[..<got]
        }
        return try open(bytes, limits: limits)
    }

    /// Opens `bytes` on a thread of its own (reading the archive and parsing its page never touch the UI thread) and
    /// calls `completion` there; the GUI hops back to GTK with `g_idle_add`.
    public static func start(
        _ bytes: [UInt8], limits: MHTLimits = .standard,
        completion: @escaping @Sendable (Result<OpenedArchive, ArchiveOpenError>) -> Void
    ) {
        DetachedThread.start(name: "faro-open") {
            do throws(ArchiveOpenError) { completion(.success(try open(bytes, limits: limits))) } catch {
                completion(.failure(error))
            }
        }
    }

    /// Why a file could not be read, in a few lower-case words.
    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "it is a folder"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
