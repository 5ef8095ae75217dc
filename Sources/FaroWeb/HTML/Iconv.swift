import Glibc

/// glibc's iconv, for the legacy encodings: one converter per call (iconv descriptors are not shared between
/// threads). The corresponding C functions are `iconv_open`, `iconv` and `iconv_close`.
enum Iconv {
    /// `bytes` from `encoding` to UTF-8, each undecodable byte as U+FFFD (counted); nil when glibc has no such
    /// converter.
    static func decode(_ bytes: ArraySlice<UInt8>, from encoding: String) -> ([UInt8], Int)? {
        let descriptor = iconv_open("UTF-8", encoding)
        guard let descriptor, descriptor != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(descriptor) }
        var input = Array(bytes)
        var output = [UInt8](repeating: 0, count: max(64, input.count * 3 + 16))
        var errors = 0
        var written = 0
        input.withUnsafeMutableBufferPointer { inBuffer in
            var inLeft = inBuffer.count
            var inPointer = UnsafeMutableRawPointer(inBuffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
            while inLeft > 0 {
                if output.count - written < 16 { output += [UInt8](repeating: 0, count: output.count) }
                var outLeft = output.count - written
                let result = output.withUnsafeMutableBufferPointer { outBuffer -> Int in
                    var outPointer =
                        UnsafeMutableRawPointer(outBuffer.baseAddress! + written)
                        .assumingMemoryBound(to: CChar.self) as UnsafeMutablePointer<CChar>?
                    let r = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                    written = outBuffer.count - outLeft
                    return r
                }
                if result != -1 { break }
                switch errno {
                case E2BIG:
                    output += [UInt8](repeating: 0, count: output.count)
                default:
                    // EILSEQ (a byte that fits nothing) or EINVAL (a sequence cut off at the end): U+FFFD, next byte.
                    errors += 1
                    if output.count - written < 3 { output += [UInt8](repeating: 0, count: 64) }
                    output[written] = 0xEF
                    output[written + 1] = 0xBF
                    output[written + 2] = 0xBD
                    written += 3
                    inPointer = inPointer.map { $0 + 1 }
                    inLeft -= 1
                    _ = iconv(descriptor, nil, nil, nil, nil)
                }
            }
            // Flush a stateful encoding's final shift sequence.
            var outLeft = output.count - written
            output.withUnsafeMutableBufferPointer { outBuffer in
                var outPointer =
                    UnsafeMutableRawPointer(outBuffer.baseAddress! + written)
                    .assumingMemoryBound(to: CChar.self) as UnsafeMutablePointer<CChar>?
                _ = iconv(descriptor, nil, nil, &outPointer, &outLeft)
                written = outBuffer.count - outLeft
            }
        }
        output.removeSubrange(written...)
        return (output, errors)
    }
}
