internal import CGtk
import FaroCore
import FaroGLib

/// A decoded image ready for the text view: a GdkPixbuf reference, handed from the decoding thread to the GTK
/// thread (GObject reference counts are thread-safe; the pixbuf is not touched by two threads at once).
final class DecodedImage: @unchecked Sendable {
    let pixbuf: OpaquePointer
    init(pixbuf: OpaquePointer) { self.pixbuf = pixbuf }
    deinit { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }

    var width: Int32 { gdk_pixbuf_get_width(pixbuf) }
    var height: Int32 { gdk_pixbuf_get_height(pixbuf) }
    /// The memory its pixels take.
    var byteCount: Int { Int(gdk_pixbuf_get_rowstride(pixbuf)) * Int(gdk_pixbuf_get_height(pixbuf)) }
}

/// Why an image is not shown.
enum ImageRefusal: Error, Equatable, Sendable {
    /// Its declared size is over the pixel limit: it was never decoded (a decompression bomb declares 30000×30000 in
    /// a few kilobytes).
    case declaredTooLarge(width: Int32, height: Int32)
    /// A format whose loader ignored the size check decoded more pixels than the limit: dropped.
    case decodedTooLarge(width: Int32, height: Int32)
    /// The page's images already use the memory the view allows for one page.
    case pageBudgetSpent
    /// GdkPixbuf cannot read it (not an image, damaged, an unknown format).
    case undecodable
}

/// Decodes the images of one page with GdkPixbufLoader, on a worker thread, never on the GTK thread. The size an
/// image declares is checked before any pixel is decoded (`size-prepared`): one over `maxPixels` is refused
/// (`gdk_pixbuf_loader_set_size(0, 0)` tells the loader to allocate nothing), one wider than `maxWidth` is decoded
/// straight to that width where the format allows it (`gdk_pixbuf_loader_set_size`), and scaled down afterwards
/// where it does not.
struct ImageDecoder: Sendable {
    /// The widest an image is shown.
    var maxWidth: Int32
    /// The most pixels an image may declare (width × height) to be decoded at all.
    var maxPixels: Int

    /// The decoded image, scaled to at most `maxWidth`, or why not.
    func decode(_ bytes: [UInt8]) -> Result<DecodedImage, ImageRefusal> {
        guard !bytes.isEmpty, let loader = gdk_pixbuf_loader_new() else { return .failure(.undecodable) }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let watch = SizeWatch(maxWidth: maxWidth, maxPixels: maxPixels)
        // The declared size arrives before any pixel is decoded: refuse or shrink there.
        GObjectSignal.connect(
            UnsafeMutableRawPointer(loader), "size-prepared",
            sizes: { object, width, height in
                guard let object else { return }
                let target = watch.target(width: width, height: height)
                gdk_pixbuf_loader_set_size(
                    object.assumingMemoryBound(to: GdkPixbufLoader.self), target.width, target.height)
            })
        var error: UnsafeMutablePointer<GError>?
        var offset = 0
        // Written in pieces, so a refused image stops being fed as soon as its header is read.
        while offset < bytes.count, !watch.refused {
            let count = min(64 << 10, bytes.count - offset)
            let ok = bytes.withUnsafeBufferPointer {
                gdk_pixbuf_loader_write(loader, $0.baseAddress.map { $0 + offset }, gsize(count), &error)
            }
            if let failure = error {
                g_error_free(failure)
                error = nil
            }
            if ok == 0 { break }
            offset += count
        }
        _ = gdk_pixbuf_loader_close(loader, &error)
        if let failure = error { g_error_free(failure) }
        if watch.refused {
            return .failure(.declaredTooLarge(width: watch.declaredWidth, height: watch.declaredHeight))
        }
        guard let decoded = gdk_pixbuf_loader_get_pixbuf(loader) else { return .failure(.undecodable) }
        let width = gdk_pixbuf_get_width(decoded)
        let height = gdk_pixbuf_get_height(decoded)
        guard width > 0, height > 0, Int(width) * Int(height) <= maxPixels else {
            return .failure(.decodedTooLarge(width: width, height: height))
        }
        if width > maxWidth {
            // The format's loader could not decode at the smaller size: scale what it decoded.
            guard
                let scaled = gdk_pixbuf_scale_simple(
                    decoded, maxWidth, max(1, Int32(Int(height) * Int(maxWidth) / Int(width))), GDK_INTERP_BILINEAR)
            else { return .failure(.undecodable) }
            return .success(DecodedImage(pixbuf: scaled))
        }
        g_object_ref(UnsafeMutableRawPointer(decoded))  // the loader's reference goes with the loader
        return .success(DecodedImage(pixbuf: decoded))
    }

    /// What `size-prepared` decided, read back after the loader is done.
    private final class SizeWatch {
        let maxWidth: Int32
        let maxPixels: Int
        var refused = false
        var declaredWidth: Int32 = 0
        var declaredHeight: Int32 = 0

        init(maxWidth: Int32, maxPixels: Int) {
            self.maxWidth = maxWidth
            self.maxPixels = maxPixels
        }

        /// The size to decode at: 0×0 (nothing at all) over the pixel limit, else at most `maxWidth` wide.
        func target(width: Int32, height: Int32) -> (width: Int32, height: Int32) {
            declaredWidth = width
            declaredHeight = height
            guard width > 0, height > 0, Int(width) * Int(height) <= maxPixels else {
                refused = true
                return (0, 0)
            }
            guard width > maxWidth else { return (width, height) }
            return (maxWidth, max(1, Int32(Int(height) * Int(maxWidth) / Int(width))))
        }
    }
}

/// The decoding of one page's images on a worker thread, in document order, within the page's memory budget;
/// cancelled (the images not yet decoded are skipped) when another page is shown.
final class DecodeBatch: @unchecked Sendable {
    /// One image to decode: its number in the page and its bytes.
    struct Job: Sendable {
        let index: Int
        let bytes: [UInt8]
    }

    let decoder: ImageDecoder
    /// The bytes of decoded pixels the page's images may take together.
    let budget: Int
    private let lock = ConditionLock()
    private var cancelled = false

    init(decoder: ImageDecoder, budget: Int) {
        self.decoder = decoder
        self.budget = budget
    }

    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    private var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// Decodes every job (on the calling thread) and reports each result as it comes.
    func run(_ jobs: [Job], _ report: (Int, Result<DecodedImage, ImageRefusal>) -> Void) {
        var spent = 0
        for job in jobs {
            if isCancelled { return }
            guard spent < budget else {
                report(job.index, .failure(.pageBudgetSpent))
                continue
            }
            let result = decoder.decode(job.bytes)
            if case .success(let image) = result {
                guard spent + image.byteCount <= budget else {
                    report(job.index, .failure(.pageBudgetSpent))
                    continue
                }
                spent += image.byteCount
            }
            report(job.index, result)
        }
    }
}

/// Where an image being decoded goes in the text buffer, with the run it belongs to (its link) and its alternative
/// text for when it cannot be shown.
struct Placeholder {
    let mark: UnsafeMutablePointer<GtkTextMark>
    let run: StyledRun
    let alt: String
}
