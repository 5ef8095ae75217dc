import Dispatch
import FaroApp
import FaroCore
import FaroStore
import FaroUI
import FaroWeb
import FoundationEssentials
import Glibc

extension FetchTask: SiteLoad {}

/// The content view's services over FaroWeb (fresh loads, MHT saving and opening, QR codes) and the store's
/// Guardados. Loads and saves run on threads of their own; answers come back on the GTK thread.
final class SiteAdapters: SiteServices, @unchecked Sendable {
    private let database: FaroDatabase
    private let databasePath: String
    private let deviceID: String

    init(database: FaroDatabase, deviceID: String) {
        self.database = database
        self.databasePath = database.path
        self.deviceID = deviceID
    }

    func load(
        _ url: String, progress: @escaping @MainActor @Sendable (Double?) -> Void,
        completion: @escaping @MainActor @Sendable (Result<LoadedSite, SiteError>) -> Void
    ) -> any SiteLoad {
        PageLoader().start(
            url, deviceID: deviceID, images: true,
            progress: { now, total in
                let fraction = total.flatMap { $0 > 0 ? min(1, Double(now) / Double($0)) : nil }
                FaroApplication.performOnMain { progress(fraction) }
            },
            completion: { [deviceID] result in
                let answer = result.map { LoadedSite(url: $0.url, document: $0.document, images: $0.images) }
                    .mapError { SiteError($0, knownID: deviceID) }
                FaroApplication.performOnMain { completion(answer) }
            })
    }

    func save(
        _ request: SaveRequest, completion: @escaping @MainActor @Sendable (Result<Int64, SiteError>) -> Void
    ) {
        let path = databasePath
        let deviceID = deviceID
        DetachedThread.start(name: "faro-save") {
            let result: Result<Int64, SiteError>
            do {
                let page = try PageSaver().save(request.url, deviceID: deviceID)
                let db = try FaroDatabase(path: path)
                let id = try db.savedPages.save(
                    url: page.url, title: page.title.isEmpty ? request.fallbackTitle : page.title,
                    business: request.business, mht: page.archive, now: request.savedAt)
                result = .success(id)
            } catch {
                result = .failure(SiteError(error, knownID: deviceID))
            }
            FaroApplication.performOnMain { completion(result) }
        }
    }

    func savedSites() -> [SavedSiteSummary] {
        ((try? database.savedPages.list()) ?? []).map {
            SavedSiteSummary(id: $0.id, url: $0.url, title: $0.title, business: $0.business, savedAt: $0.savedAt)
        }
    }

    func openSaved(_ id: Int64) throws(SiteError) -> LoadedSite {
        try SiteAdapters.openSaved(id, in: database)
    }

    /// `openSaved(_:)` on a thread of its own (reading the archive from SQLite, the MHT and its HTML never touch the
    /// GTK thread); `completion` runs on the GTK thread.
    func openSaved(_ id: Int64, completion: @escaping @MainActor @Sendable (Result<LoadedSite, SiteError>) -> Void) {
        let path = databasePath
        DetachedThread.start(name: "faro-open") {
            let result: Result<LoadedSite, SiteError>
            do {
                result = .success(try SiteAdapters.openSaved(id, in: try FaroDatabase(path: path)))
            } catch {
                result = .failure(SiteError(error))
            }
            FaroApplication.performOnMain { completion(result) }
        }
    }

    private static func openSaved(_ id: Int64, in database: FaroDatabase) throws(SiteError) -> LoadedSite {
        do {
            guard let bytes = try database.savedPages.archive(id: id) else {
                throw SiteError(.savedPageGone, detail: "that saved page is gone")
            }
            let opened = try ArchiveOpener.open(bytes)
            var images: [String: [UInt8]] = [:]
            for source in opened.document.imageSources { images[source] = opened.imageData(for: source) }
            return LoadedSite(
                url: DeviceIDURL.stripping(from: opened.archive.location ?? ""), document: opened.document,
                images: images)
        } catch {
            throw SiteError(error)
        }
    }

    func deleteSaved(_ id: Int64) throws(SiteError) {
        do { try database.savedPages.delete(id: id) } catch { throw SiteError(error) }
    }

    func exportSaved(_ id: Int64, to path: String) throws(SiteError) {
        do {
            guard let bytes = try database.savedPages.archive(id: id) else {
                throw SiteError(.savedPageGone, detail: "that saved page is gone")
            }
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw SiteError(error)
        }
    }

    func savedCopy(of url: String) -> Int64? {
        let plain = DeviceIDURL.stripping(from: url)
        return savedSites().first { $0.url == plain }?.id
    }

    func qrCode(for url: String) -> QRMatrix? { try? QRCodeEncoder.encode(url) }
}
