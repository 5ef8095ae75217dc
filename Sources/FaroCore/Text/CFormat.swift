#if canImport(Glibc)
    import Glibc
#endif

extension String {
    /// Text formatted by the C library's printf rules (`%.2f`, `%04x`, `%d` …), as Foundation's
    /// `String(format:)` does for these conversions (numbers: pass Int with `%ld`); `%@` and `%s` are not supported. The corresponding C function is
    /// `vsnprintf`.
    public init(cFormat format: String, _ arguments: CVarArg...) {
        self = withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 128)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            guard needed >= buffer.count else {
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            return withVaList(arguments) { again in
                buffer = [CChar](repeating: 0, count: needed + 1)
                _ = vsnprintf(&buffer, buffer.count, format, again)
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }
}
