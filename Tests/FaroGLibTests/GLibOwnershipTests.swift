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
    /// A weak reference to the token lent out.
    final class Held {
        weak var token: Token?
        var isAlive: Bool { token != nil }
    }

    /// Makes a token, hands it to `lend` (which lends it to GLib) and drops it: the token lives on exactly as long
    /// as GLib keeps what it was lent. Returns the weak reference and what `lend` returned.
    static func lent<R>(_ lend: (Token) -> R) -> (Held, R) {
        let held = Held()
        let token = Token()
        held.token = token
        return (held, lend(token))
    }

    /// A plain GObject, to hang data and handlers on.
    static func newObject() throws -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(try #require(g_object_new_with_properties(g_object_get_type(), 0, nil, nil)))
    }

    @Test func objectDataLivesExactlyAsLongAsItsObject() throws {
        let object = try Self.newObject()
        let (held, _) = Self.lent { GObjectData.attach($0, to: object, key: "faro-test") }
        #expect(held.isAlive)
        #expect(GObjectData.value(on: object, key: "faro-test", as: Token.self) === held.token)
        #expect(GObjectData.value(on: object, key: "faro-test", as: Other.self) == nil)
        #expect(GObjectData.value(on: object, key: "other-key", as: Token.self) == nil)
        g_object_unref(object)
        #expect(!held.isAlive)
    }

    @Test func objectDataSetAgainReleasesWhatWasThere() throws {
        let object = try Self.newObject()
        defer { g_object_unref(object) }
        let (first, _) = Self.lent { GObjectData.attach($0, to: object, key: "faro-test") }
        GObjectData.attach(Token(), to: object, key: "faro-test")
        #expect(!first.isAlive)
        #expect(GObjectData.value(on: object, key: "faro-test", as: Token.self) != nil)
    }

    @Test func aSignalHandlersBoxIsReleasedWithItsObject() throws {
        // A GSimpleAction's "activate" (GSimpleAction *, GVariant *parameter): one pointer argument.
        let action = try #require(g_simple_action_new("faro-test", nil))
        var calls = 0
        let (held, _) = Self.lent { token in
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
        #expect(held.isAlive)
        g_object_unref(UnsafeMutableRawPointer(action))
        #expect(!held.isAlive)
    }

    @Test func aDisconnectedHandlerIsReleased() throws {
        let object = try Self.newObject()
        defer { g_object_unref(object) }
        let (held, id) = Self.lent { token in GObjectSignal.connect(object, "notify", pointer: { _ in _ = token }) }
        #expect(id != 0 && held.isAlive)
        GObjectSignal.disconnect(object, id)
        #expect(!held.isAlive)
    }

    @Test(arguments: [true, false])
    func aTimeoutsClosureIsReleasedWhenItEndsOrIsRemoved(runs: Bool) throws {
        let context = try #require(g_main_context_new())
        defer { g_main_context_unref(context) }
        var count = 0
        let (held, id) = Self.lent { token in
            MainContextSources.addTimeout(milliseconds: runs ? 0 : 60_000, context: context) {
                _ = token
                count += 1
                return false
            }
        }
        #expect(id != 0 && held.isAlive)
        if runs {
            for _ in 0..<100 where count == 0 { g_main_context_iteration(context, 1) }
        } else {
            MainContextSources.remove(id, context: context)
        }
        while g_main_context_iteration(context, 0) != 0 {}
        #expect(count == (runs ? 1 : 0))
        #expect(!held.isAlive)
    }

    @Test func aClosureForAnUnwrappedCAPIIsReleasedByItsDestroyNotify() {
        // What faro-backend hands libsoup: the user data and the GDestroyNotify GLib calls when the handler goes.
        typealias Box = GLibClosure<Int, Int>
        let (held, data) = Self.lent { token in
            Box.retained { value in
                _ = token
                return value * 2
            }
        }
        #expect(Box.call(data, 21) == 42)
        #expect(Box.call(data, 2) == 4)
        #expect(held.isAlive)
        Box.destroyNotify(data)
        #expect(!held.isAlive)
    }
}
