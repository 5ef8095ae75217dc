/// The host names that reach this computer only: where plain http carries no risk of being read on the way, so the
/// demo and the tests may talk http to them (and send the device id over it).
public enum LoopbackHost {
    /// 127.0.0.0/8 written as four decimal numbers, `::1` (also written out in full) and `localhost`; brackets
    /// around an IPv6 address are ignored. `127.0.0.1.example.com` is not loopback.
    public static func contains(_ host: String) -> Bool {
        let h = host.lowercased().trimming(charactersIn: "[]")
        if h == "localhost" || h == "::1" || h == "0:0:0:0:0:0:0:1" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && UInt8($0) != nil }
    }
}
