// libFuzzer entry point for the JSON reader every backend answer goes through (`JSONValue.parse`). Built by
// scripts/fuzz.sh together with Sources/FaroCore/Outbox/JSONValue.swift and Sources/FaroCore/Text/*.swift into one
// module (`swiftc -sanitize=fuzzer,address`).
//
// Besides "no crash, no out-of-bounds read, no unbounded recursion", every input that parses must come back the
// same through the writer: `parse(serialized(v)) == v`. A violation traps and libFuzzer keeps the input.

@_cdecl("LLVMFuzzerTestOneInput")
public func faroFuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONValue.parse(bytes: bytes, maxDepth: 64) else { return 0 }
    let text = value.serialized
    guard let again = try? JSONValue.parse(text, maxDepth: 64) else {
        fatalError("the writer's output does not parse: \(text)")
    }
    // NaN and infinities are written as null, and fractions that are whole as integers: compare what is kept.
    guard again.serialized == text else { fatalError("round trip changed \(text) into \(again.serialized)") }
    return 0
}
