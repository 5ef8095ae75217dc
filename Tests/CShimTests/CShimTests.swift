import CGio
import CShim
import Testing

/// The shim's wrappers reach the real C libraries: each test makes the call the wrapper exists for.
@Suite("C shim")
struct CShimTests {
    @Test func sqliteTransientBindCopiesTheText() throws {
        var db: OpaquePointer?
        #expect(sqlite3_open(":memory:", &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        #expect(sqlite3_prepare_v2(db, "SELECT ?1 || '!', length(?2)", -1, &statement, nil) == SQLITE_OK)
        defer { sqlite3_finalize(statement) }
        do {
            // The Swift string's buffer is gone after the call; SQLite must have copied it.
            var text = "hola"
            #expect(faro_sqlite3_bind_text_transient(statement, 1, text, -1) == SQLITE_OK)
            text = "adiós"
            let blob: [UInt8] = [1, 2, 3]
            #expect(faro_sqlite3_bind_blob_transient(statement, 2, blob, Int32(blob.count)) == SQLITE_OK)
        }
        #expect(sqlite3_step(statement) == SQLITE_ROW)
        let value = try #require(sqlite3_column_text(statement, 0))
        #expect(String(cString: value) == "hola!")
        #expect(sqlite3_column_int(statement, 1) == 3)
    }

    @Test func curlTypedSetoptAndGetinfo() throws {
        // libcurl is opened on first use (curl_loader.c).
        try #require(faro_curl_load())
        let handle = try #require(curl_easy_init())
        defer { curl_easy_cleanup(handle) }
        #expect(faro_curl_easy_setopt_string(handle, CURLOPT_URL, "http://127.0.0.1:9/") == CURLE_OK)
        #expect(faro_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, 2000) == CURLE_OK)
        #expect(faro_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, 1000) == CURLE_OK)
        // Nothing listens on port 9 (discard) here: the transfer fails to connect, and getinfo reports no response.
        let result = curl_easy_perform(handle)
        #expect(result == CURLE_COULDNT_CONNECT || result == CURLE_OPERATION_TIMEDOUT)
        var code: Int = -1
        #expect(faro_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK)
        #expect(code == 0)
        var url: UnsafePointer<CChar>?
        #expect(faro_curl_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &url) == CURLE_OK)
        #expect(url.map { String(cString: $0) } == "http://127.0.0.1:9/")
    }

    /// Counts handler calls and the destroy notify, to check that GLib owns and releases the box.
    final class Box {
        var calls = 0
        var released = false
    }

    @Test func signalConnectRunsTheHandlerAndReleasesTheBox() {
        let action = g_simple_action_new("probar", nil)
        let box = Box()
        let handler: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
            guard let data else { return }
            Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().calls += 1
        }
        let destroy: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
            guard let data else { return }
            let box = Unmanaged<Box>.fromOpaque(data).takeRetainedValue()
            box.released = true
        }
        let id = faro_g_signal_connect(
            UnsafeMutableRawPointer(action), "activate", unsafeBitCast(handler, to: GCallback.self),
            Unmanaged.passRetained(box).toOpaque(), destroy)
        #expect(id > 0)
        g_action_activate(action, nil)
        g_action_activate(action, nil)
        #expect(box.calls == 2)
        #expect(!box.released)
        faro_g_object_unref(UnsafeMutableRawPointer(action))
        #expect(box.released)
    }
}
