import FaroCore
import FoundationEssentials
import Glibc
import Testing

/// The small pieces that stand in for Foundation APIs FoundationEssentials lacks.
@Suite("Platform and text helpers")
struct PlatformTests {
    @Test func trimmingMatchesFoundationsCharacterSets() {
        #expect(" \t a b \t ".trimmingWhitespace() == "a b")
        #expect("\u{00A0}x\u{2003}".trimmingWhitespace() == "x")  // no-break space and em space are Zs
        #expect("\n a \n".trimmingWhitespace() == "\n a \n")  // line breaks are not .whitespaces
        #expect("\n\t a \r\n".trimmingWhitespaceAndNewlines() == "a")
        #expect("<id@x>".trimming(charactersIn: "<> ") == "id@x")
        #expect("   ".trimmingWhitespace() == "")
        #expect(Substring("  y ").trimmingWhitespace() == "y")
    }

    @Test func cFormatFollowsPrintf() {
        #expect(String(cFormat: "%.2f", 0.125) == "0.12")  // printf rounds the exact binary value half to even
        #expect(String(cFormat: "%.1f m", 2.44) == "2.4 m")
        #expect(String(cFormat: "\\u%04x", UInt32(0x1f)) == "\\u001f")
        #expect(String(cFormat: "%ld/%ld", 3, 40) == "3/40")
        let long = String(cFormat: "%0300ld!", 7)  // longer than the first buffer
        #expect(long.count == 301 && long.hasSuffix("7!") && long.hasPrefix("000"))
    }

    @Test func parentDirectoryIsTheFolderPart() {
        #expect("/a/b/c.db".parentDirectoryPath == "/a/b")
        #expect("/c.db".parentDirectoryPath == "/")
        #expect("c.db".parentDirectoryPath == "")
        #expect("/a/b/".parentDirectoryPath == "/a")
        #expect("a//b".parentDirectoryPath == "a")
    }

    @Test func aDetachedThreadRunsAndIsNamed() {
        let lock = ConditionLock()
        nonisolated(unsafe) var name = ""
        nonisolated(unsafe) var done = false
        #expect(
            DetachedThread.start(name: "faro-test-thread") {
                var buffer = [CChar](repeating: 0, count: 32)
                let fd = open("/proc/thread-self/comm", O_RDONLY)
                if fd >= 0 {
                    _ = read(fd, &buffer, 31)
                    close(fd)
                }
                lock.withLock {
                    name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    done = true
                    lock.broadcast()
                }
            })
        lock.lock()
        while !done, lock.wait(until: Date().addingTimeInterval(10)) {}
        lock.unlock()
        #expect(done)
        #expect(name.trimmingWhitespaceAndNewlines() == "faro-test-threa")  // Linux keeps 15 bytes
    }

    /// The catalog's and the outbox's thread life: one thread at a time, a stop that wakes the sleeping body and
    /// waits for it to end, `ending` done before the waiter returns, then a new start.
    @Test func aWorkerThreadStartsOnceStopsWhenAskedAndStartsAgain() {
        let lock = ConditionLock()
        let worker = WorkerThread(name: "faro-test-work", condition: lock)
        nonisolated(unsafe) var runs = 0
        nonisolated(unsafe) var endings = 0
        nonisolated(unsafe) var queued: [String] = []
        let body: @Sendable () -> Void = {
            lock.lock()
            defer { lock.unlock() }
            runs += 1
            lock.broadcast()
            while !worker.isStopping { lock.wait() }  // a worker asleep with nothing to do
        }
        lock.withLock { #expect(worker.hasFinished && !worker.isStopping) }
        let first = worker.start(starting: { queued.append("first") }, ending: { endings += 1 }, run: body)
        let second = worker.start(starting: { queued.append("second") }, run: body)
        #expect(first && !second)  // one thread at a time
        lock.lock()
        while runs < 1, lock.wait(until: Date().addingTimeInterval(10)) {}
        #expect(runs == 1 && !worker.hasFinished)
        lock.unlock()
        worker.stop(timeout: 10)
        lock.withLock {
            #expect(worker.hasFinished && worker.isStopping)
            #expect(endings == 1)
            #expect(queued == ["first"])
        }
        let again = worker.start(starting: { queued.append("again") }, ending: { endings += 1 }, run: body)
        #expect(again)
        lock.withLock { #expect(!worker.isStopping) }
        worker.stop(timeout: 10)
        lock.withLock { #expect(runs == 2 && endings == 2 && queued == ["first", "again"] && worker.hasFinished) }
    }

    @Test func stoppingAWorkerThatNeverStartedReturnsAtOnce() {
        let worker = WorkerThread(name: "faro-test-idle", condition: ConditionLock())
        let start = Date()
        worker.stop(timeout: 5)
        #expect(Date().timeIntervalSince(start) < 4)
    }

    @Test func aConditionWaitTimesOutAtItsDeadline() {
        let lock = ConditionLock()
        let start = Date()
        lock.lock()
        let woken = lock.wait(until: start.addingTimeInterval(0.05))
        lock.unlock()
        #expect(!woken)
        #expect(Date().timeIntervalSince(start) >= 0.04)
    }

    @Test func anAtomicWriteReplacesTheFileOrLeavesItAlone() throws {
        let folder = FileManager.default.temporaryDirectory.path + "/faro-atomic-\(getpid())"
        mkdir(folder, 0o700)
        defer {
            unlink(folder + "/page.mht")
            rmdir(folder)
        }
        let path = folder + "/page.mht"
        try AtomicFile.write(Array("first".utf8), to: path)
        try AtomicFile.write(Array("second".utf8), to: path)
        #expect(FileManager.default.contents(atPath: path) == Data("second".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["page.mht"])  // no part file left

        #expect(
            throws: FileWriteError(path: folder + "/missing/x.mht", problem: .noSuchFolder, reason: "no such folder")
        ) {
            try AtomicFile.write([1, 2, 3], to: folder + "/missing/x.mht")
        }
        // A target that cannot be replaced (a folder in its place) is left alone, and so is the folder.
        mkdir(folder + "/busy", 0o700)
        defer { rmdir(folder + "/busy") }
        #expect(throws: FileWriteError.self) { try AtomicFile.write([1], to: folder + "/busy") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["busy", "page.mht"])
    }
}

@Suite("Thread priority")
struct ThreadPriorityTests {
    @Test func niceChangesOnlyTheCallingThread() throws {
        let before = ThreadPriority.nice()
        let seen = ConditionLock()
        nonisolated(unsafe) var workerNice: Int32?
        #expect(
            DetachedThread.start(name: "faro-nice-test") {
                ThreadPriority.setNice(min(before + 5, 19))
                let value = ThreadPriority.nice()
                seen.withLock { workerNice = value }
                seen.broadcast()
            })
        seen.lock()
        while workerNice == nil { seen.wait() }
        seen.unlock()
        #expect(workerNice == min(before + 5, 19))
        #expect(ThreadPriority.nice() == before)
    }
}
