#if canImport(Glibc)
    import Glibc
#endif

/// Which certificates a handle trusts: the system's store, or (for the tests' own HTTPS peer only) one PEM bundle
/// named by `FARO_TEST_CA_BUNDLE`.
public struct CurlTrust: Sendable, Equatable {
    /// The environment variable of the test-only bundle. It replaces the system's trusted certificates for every
    /// HTTPS request of the process; it exists so that the tests can trust a certificate they made themselves, and
    /// is never needed in normal use.
    public static let testBundleVariable = "FARO_TEST_CA_BUNDLE"

    /// A PEM file of trusted certificates instead of the system's, or nil for the system's store.
    public var caBundle: String?

    public init(caBundle: String? = nil) { self.caBundle = caBundle }

    /// The system's store, unless `FARO_TEST_CA_BUNDLE` names a bundle.
    public static func fromEnvironment() -> CurlTrust {
        guard let value = getenv(testBundleVariable).map({ String(cString: $0) }), !value.isEmpty else {
            return CurlTrust()
        }
        return CurlTrust(caBundle: value)
    }
}
