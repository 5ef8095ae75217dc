/// The host names that reach this computer only: where plain http carries no risk of being read on the way, so the
/// demo and the tests may talk http to them (and send the device id over it).
public enum LoopbackHost {
    /// 127.0.0.0/8 written as four decimal numbers of one to three digits, `::1` (also written out in full) and
    /// `localhost`; brackets around an IPv6 address are ignored. `127.0.0.1.example.com` is not loopback, and
    /// neither is `127.0.0.+1` (a sign is not a digit, whatever `UInt8("+1")` says).
    public static func contains(_ host: String) -> Bool {
        let h = host.lowercased().trimming(charactersIn: "[]")
        if h == "localhost" || h == "::1" || h == "0:0:0:0:0:0:0:1" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { part in
                (1...3).contains(part.utf8.count) && part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                    && UInt8(part) != nil
            }
    }
}
