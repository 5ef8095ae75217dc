// swift-tools-version:6.0
// Faro: a beacon companion for the Linux desktop.
//
// C libraries come in through one `systemLibrary` target each (found with pkg-config) and one small C shim
// (`CShim`) for the macros and variadic functions Swift cannot call. `FaroCore` is pure Swift and imports no C
// module: decoding, distance, ranging, regions and form rules can be read and tested without any system library.
import PackageDescription

/// One system-library target per C library: a module map in `Sources/<name>` and the apt package that provides it.
func cLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "Faro",
    products: [
        .executable(name: "faro", targets: ["faro"]),
        .library(name: "FaroCore", targets: ["FaroCore"]),
    ],
    targets: [
        cLibrary("CGtk", pkgConfig: "gtk+-3.0", apt: "libgtk-3-dev"),
        cLibrary("CNotify", pkgConfig: "libnotify", apt: "libnotify-dev"),
        cLibrary("CBluez", pkgConfig: "bluez", apt: "libbluetooth-dev"),
        cLibrary("CSQLite", pkgConfig: "sqlite3", apt: "libsqlite3-dev"),
        cLibrary("CCurl", pkgConfig: "libcurl", apt: "libcurl4-openssl-dev"),
        cLibrary("CXML2", pkgConfig: "libxml-2.0", apt: "libxml2-dev"),
        cLibrary("CSoup", pkgConfig: "libsoup-3.0", apt: "libsoup-3.0-dev"),
        .target(
            name: "CShim",
            dependencies: ["CGtk", "CNotify", "CBluez", "CSQLite", "CCurl", "CXML2", "CSoup"],
            path: "Sources/CShim"
        ),
        .target(name: "FaroCore", path: "Sources/FaroCore"),
        .executableTarget(name: "faro", dependencies: ["FaroCore"], path: "Sources/faro"),
        .target(name: "FaroTestSupport", path: "Tests/FaroTestSupport"),
        .testTarget(name: "FaroCoreTests", dependencies: ["FaroCore"], path: "Tests/FaroCoreTests"),
        .testTarget(name: "CShimTests", dependencies: ["CShim"], path: "Tests/CShimTests"),
        .testTarget(name: "FaroCLITests", dependencies: ["FaroCore", "FaroTestSupport", "faro"], path: "Tests/FaroCLITests"),
    ],
    swiftLanguageModes: [.v6]
)
