// libFuzzer entry for the page charset step (HTMLEncoding): any bytes, under any declared charset, decode to
// well-formed UTF-8 without a crash or a stall. Built by scripts/fuzz.sh with FaroWeb/HTML/HTMLEncoding.swift,
// UTF8Check.swift and Iconv.swift.
let labels: [String?] = [
    nil, "utf-8", "windows-1252", "shift_jis", "euc-jp", "iso-2022-jp", "gbk", "gb18030", "big5", "euc-kr",
    "utf-16le", "utf-16be", "koi8-r", "iso-8859-2", "x-unknown",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func faroFuzzCharset(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: count))
    let label = labels[Int(bytes[0]) % labels.count]
    let decoded = HTMLEncoding.decode(Array(bytes.dropFirst()), httpCharset: label)
    guard UTF8Check(decoded.utf8[...]).isValid else { fatalError("the decoded page is not UTF-8") }
    return 0
}
