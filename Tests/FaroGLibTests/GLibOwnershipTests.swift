import CGio
import FaroGLib
import Testing

/// Who owns what FaroGLib lends to GLib: every box is released by GLib when the source, handler or object it
/// belongs to goes away, neither earlier (GLib would call freed memory) nor never (a leak per request).
@Suite struct GLibOwnershipTests {
    /// Something a box holds, to see through a weak reference when the box is released.
    final class Token {}
    /// A value of another class, to check that `GObjectData.value` checks the type.
    final class Other {}

    /// A plain GObject, to hang data and handlers on.
    static func newObject() throws -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(try #require(g_object_new_with_properties(g_object_get_type(), 0, nil, nil)))
    }

    @Test func objectDataLivesExactlyAsLongAsItsObject() throws {
        let object = try Self.newObject()
        weak var held: Token?
        do {
            let token = Token()
            held = token
            GObjectData.attach(token, to: object, key: "faro-test")
        }
        #expect(held != nil)
        #expect(GObjectData.value(on: object, key: "faro-test", as: Token.self) === held)
        #expect(GObjectData.value(on: object, key: "faro-test", as: Other.self) == nil)
        #expect(GObjectData.value(on: object, key: "other-key", as: Token.self) == nil)
        g_object_unref(object)
        #expect(held == nil)
    }

    @Test func objectDataSetAgainReleasesWhatWasThere() throws {
        let object = try Self.newObject()
        defer { g_object_unref(object) }
        weak var first: Token?
        do {
            let token = Token()
            first = token
            GObjectData.attach(token, to: object, key: "faro-test")
            GObjectData.attach(Token(), to: object, key: "faro-test")
        }
        #expect(first == nil)
        #expect(GObjectData.value(on: object, key: "faro-test", as: Token.self) != nil)
    }

    @Test func aSignalHandlersBoxIsReleasedWithItsObject() throws {
        // A GSimpleAction's "activate" (GSimpleAction *, GVariant *parameter): one pointer argument.
        let action = try #require(g_simple_action_new("faro-test", nil))
        weak var held: Token?
        var calls = 0
        do {
            let token = Token()
            held = token
            GObjectSignal.connect(
                UnsafeMutableRawPointer(action), "activate",
                pointer: { _ in
                    _ = token
                    calls += 1
                })
        }
        g_action_activate(action, nil)
        g_action_activate(action, nil)
        #expect(calls == 2)
        #expect(held != nil)
        g_object_unref(UnsafeMutableRawPointer(action))
        #expect(held == nil)
    }

    @Test func aDisconnectedHandlerIsReleasedAndNotCalled() throws {
        let object = try Self.newObject()
        defer { g_object_unref(object) }
        weak var held: Token?
        let id: UInt
        do {
            let token = Token()
            held = token
            id = GObjectSignal.connect(object, "notify", pointer: { _ in _ = token })
        }
        #expect(id != 0 && held != nil)
        GObjectSignal.disconnect(object, id)
        #expect(held == nil)
    }

    @Test func aOneShotTimeoutRunsOnceAndReleasesItsClosure() throws {
        let context = try #require(g_main_context_new())
        defer { g_main_context_unref(context) }
        weak var held: Token?
        var runs = 0
        do {
            let token = Token()
            held = token
            MainContextSources.addTimeout(milliseconds: 0, context: context) {
                _ = token
                runs += 1
                return false
            }
        }
        #expect(held != nil)
        for _ in 0..<100 where runs == 0 { g_main_context_iteration(context, 1) }
        while g_main_context_iteration(context, 0) != 0 {}
        #expect(runs == 1)
        #expect(held == nil)
    }

    @Test func aRemovedTimeoutReleasesItsClosureWithoutRunning() throws {
        let context = try #require(g_main_context_new())
        defer { g_main_context_unref(context) }
        weak var held: Token?
        var runs = 0
        let id: UInt32
        do {
            let token = Token()
            held = token
            id = MainContextSources.addTimeout(milliseconds: 60_000, context: context) {
                _ = token
                runs += 1
                return false
            }
        }
        #expect(id != 0 && held != nil)
        MainContextSources.remove(id, context: context)
        #expect(held == nil)
        #expect(runs == 0)
    }

    @Test func aClosureForAnUnwrappedCAPIIsReleasedByItsDestroyNotify() {
        // What faro-backend hands libsoup: the user data and the GDestroyNotify GLib calls when the handler goes.
        typealias Box = GLibClosure<Int, Int>
        weak var held: Token?
        let data: UnsafeMutableRawPointer
        do {
            let token = Token()
            held = token
            data = Box.retained { value in
                _ = token
                return value * 2
            }
        }
        #expect(Box.call(data, 21) == 42)
        #expect(Box.call(data, 2) == 4)
        #expect(held != nil)
        Box.destroyNotify(data)
        #expect(held == nil)
    }
}
