/// Faro's version, the one `faro --version`, `faro-backend --version` and the manual pages print. Meson's
/// `project(version:)` is where it is set: `scripts/meson-swift-build.sh` refuses to build when this copy differs,
/// and a test keeps it equal to meson.build, debian/changelog and the metainfo's latest release.
public enum FaroVersion {
    public static let string = "0.1.0"
}
