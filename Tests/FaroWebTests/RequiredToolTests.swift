import FaroTestSupport
import Testing

/// The rule for tests whose tool is missing: skipped on a developer's machine, failed under `CI=true`.
@Suite("Required tools")
struct RequiredToolTests {
    @Test func aMissingToolRunsAndFailsUnderCIAndIsSkippedElsewhere() {
        let missing = RequiredTool.executable("/nonexistent/faro-tool", package: "faro-tool")
        #expect(!missing.isPresent)
        #expect(missing.shouldRun == RequiredTool.isCI)
        #expect(throws: RequiredTool.Missing.self) { try missing.require() }
        do { try missing.require() } catch { #expect("\(error)".contains("apt-get install faro-tool")) }
        let present = RequiredTool.executable("/bin/sh", package: "dash")
        #expect(present.isPresent && present.shouldRun)
    }
}
