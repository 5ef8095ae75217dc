import FaroCore
import FoundationEssentials
import Glibc
import Testing

@testable import FaroCore

/// Temporary files beside an export cannot be hijacked: they are created with `O_EXCL | O_NOFOLLOW` under a name
/// nobody can guess, so a link planted in the folder is never written through.
@Suite("Atomic file writes in a shared folder")
struct AtomicFileTests {
    /// A fresh folder with a "victim" file that a planted link points at.
    final class Folder {
        let path: String
        init() {
            path =
                FileManager.default.temporaryDirectory.path
                + "/faro-atomic-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            mkdir(path, 0o700)
            #expect(FileManager.default.createFile(atPath: path + "/victim", contents: Data("secret".utf8)))
        }
        var victim: String {
            String(decoding: FileManager.default.contents(atPath: path + "/victim") ?? Data(), as: UTF8.self)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    @Test func aLinkPlantedUnderTheOldPredictableNameIsNotWrittenThrough() throws {
        // Before: the temporary file was `TARGET.part-PID`, opened with O_CREAT | O_TRUNC, which follows a link.
        let folder = Folder()
        let target = folder.path + "/page.mht"
        symlink(folder.path + "/victim", target + ".part-\(getpid())")
        try AtomicFile.write(Array("exported".utf8), to: target)
        #expect(folder.victim == "secret")
        #expect(FileManager.default.contents(atPath: target) == Data("exported".utf8))
        var info = stat()
        #expect(lstat(target, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG)  // a file, not the planted link
    }

    @Test func aNameThatIsTakenIsNeverOpenedAndAnotherIsDrawn() throws {
        let folder = Folder()
        let target = folder.path + "/page.mht"
        // The first name drawn is already a link to the victim (O_EXCL | O_NOFOLLOW refuse it); the second is free.
        symlink(folder.path + "/victim", target + ".part-taken")
        var names = ["taken", "free"].makeIterator()
        try AtomicFile.write(Array("exported".utf8), to: target, permissions: 0o644) { names.next() ?? "more" }
        #expect(folder.victim == "secret")
        #expect(FileManager.default.contents(atPath: target) == Data("exported".utf8))
        #expect(FileManager.default.fileExists(atPath: target + ".part-taken"))  // the planted link is left alone
        #expect(!FileManager.default.fileExists(atPath: target + ".part-free"))
    }

    @Test func temporaryNamesAreUnpredictable() {
        var generator = SystemRandomNumberGenerator()
        let names = (0..<64).map { _ in AtomicFile.randomName(&generator) }
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.count == 16 && $0.allSatisfy { $0.isLetter || $0.isNumber } })
    }

    @Test func theFolderIsSyncedAfterTheRename() {
        let folder = Folder()
        #expect(AtomicFile.syncDirectory(of: folder.path + "/page.mht") == 0)
        #expect(AtomicFile.syncDirectory(of: folder.path + "/missing/page.mht") == ENOENT)
    }
}
