import CGio
import FaroGLib
import FaroTestSupport
import Foundation
import Testing

/// `ContextThread`: work given to it runs on its own thread, in order, while the caller goes on; and what the work
/// subscribes to there (a D-Bus signal, as libnotify's proxy does) is delivered there.
@Suite struct ContextThreadTests {
    /// What the work saw, written from the context thread and read by the test.
    final class Record: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int] = []
        private var threads: [pthread_t] = []

        func add(_ value: Int) {
            lock.withLock {
                values.append(value)
                threads.append(pthread_self())
            }
        }

        var snapshot: (values: [Int], threads: [pthread_t]) { lock.withLock { (values, threads) } }
    }

    @Test func workRunsInOrderOnItsOwnThreadWhileTheCallerGoesOn() throws {
        let thread = ContextThread(name: "faro-test")
        let record = Record()
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        // The first piece waits (a call to a peer that does not answer); the caller does not.
        thread.perform {
            gate.wait()
            record.add(0)
        }
        for value in 1..<10 { thread.perform { record.add(value) } }
        thread.perform { done.signal() }
        #expect(record.snapshot.values.isEmpty)

        gate.signal()
        try #require(done.wait(timeout: .now() + 10) == .success)
        let (values, threads) = record.snapshot
        #expect(values == Array(0..<10))
        let first = try #require(threads.first)
        #expect(pthread_equal(first, pthread_self()) == 0)
        #expect(threads.allSatisfy { pthread_equal($0, first) != 0 })
    }

    @Test func aSignalSubscribedOnTheThreadIsDeliveredThere() throws {
        let bus = try PrivateBus()
        let listener = try DBusClient.connectSync(address: bus.address).get()
        let sender = try DBusClient.connectSync(address: bus.address).get()
        defer {
            DBusClient.close(sender, waiting: true)
            DBusClient.close(listener, waiting: true)
        }
        nonisolated(unsafe) let connection = listener
        let thread = ContextThread(name: "faro-test")
        let record = Record()
        let subscribed = DispatchSemaphore(value: 0)
        let delivered = DispatchSemaphore(value: 0)
        thread.perform {
            record.add(0)
            _ = DBusClient.subscribe(
                connection, sender: nil, interface: "io.github.faro.Test", member: "Ping", path: "/io/github/faro/Test"
            ) { _, _, _ in
                record.add(1)
                delivered.signal()
            }
            subscribed.signal()
        }
        try #require(subscribed.wait(timeout: .now() + 10) == .success)
        // A match rule reaches the bus asynchronously; a round trip on the listener's connection settles it.
        let id = DBusClient.callSync(
            listener, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", method: "GetId")
        if case .success(let reply) = id { GVariantReading.release(reply) }

        var error: UnsafeMutablePointer<GError>?
        g_dbus_connection_emit_signal(sender, nil, "/io/github/faro/Test", "io.github.faro.Test", "Ping", nil, &error)
        #expect(error == nil)
        g_dbus_connection_flush_sync(sender, nil, nil)

        try #require(delivered.wait(timeout: .now() + 10) == .success, "the signal never came to the thread")
        let threads = record.snapshot.threads
        #expect(threads.count == 2)
        #expect(pthread_equal(threads[0], threads[1]) != 0)
        #expect(pthread_equal(threads[1], pthread_self()) == 0)
    }
}
