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
        .executable(name: "faro-backend", targets: ["faro-backend"]),
        .library(name: "FaroCore", targets: ["FaroCore"]),
    ],
    targets: [
        cLibrary("CGtk", pkgConfig: "gtk+-3.0", apt: "libgtk-3-dev"),
        cLibrary("CNotify", pkgConfig: "libnotify", apt: "libnotify-dev"),
        cLibrary("CBluez", pkgConfig: "bluez", apt: "libbluetooth-dev"),
        cLibrary("CSQLite", pkgConfig: "sqlite3", apt: "libsqlite3-dev"),
        // libcurl's headers only: the library is opened on first use (CShim/curl_loader.c), not linked.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        cLibrary("CXML2", pkgConfig: "libxml-2.0", apt: "libxml2-dev"),
        cLibrary("CSoup", pkgConfig: "libsoup-3.0", apt: "libsoup-3.0-dev"),
        cLibrary("CGio", pkgConfig: "gio-2.0", apt: "libglib2.0-dev"),
        cLibrary("CAppIndicator", pkgConfig: "ayatana-appindicator3-0.1", apt: "libayatana-appindicator3-dev"),
        cLibrary("CQREncode", pkgConfig: "libqrencode", apt: "libqrencode-dev"),
        .target(
            name: "CShim",
            dependencies: ["CGtk", "CNotify", "CBluez", "CSQLite", "CCurl", "CXML2"],
            path: "Sources/CShim"
        ),
        .target(
            name: "FaroCore", path: "Sources/FaroCore",
            // The engine is generic over its filter; let release builds specialize it inside the callers.
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
        ),
        .target(name: "FaroStore", dependencies: ["FaroCore", "CSQLite", "CShim"], path: "Sources/FaroStore"),
        .target(
            name: "FaroNet", dependencies: ["FaroCore", "FaroStore", "CCurl", "CShim", "CGio"], path: "Sources/FaroNet"),
        .executableTarget(
            name: "faro-backend", dependencies: ["FaroCore", "FaroStore", "FaroInstall", "CSoup", "CShim"],
            path: "Sources/faro-backend"
        ),
        .target(name: "FaroBluetooth", dependencies: ["FaroCore", "CGio", "CBluez"], path: "Sources/FaroBluetooth"),
        .target(
            name: "FaroWeb", dependencies: ["FaroCore", "CShim", "CCurl", "CXML2", "CGio", "CQREncode"],
            path: "Sources/FaroWeb"
        ),
        .executableTarget(
            name: "faro",
            dependencies: [
                "FaroCore", "FaroBluetooth", "FaroStore", "FaroNet", "FaroApp", "FaroUI", "FaroWeb", "FaroInstall",
            ],
            path: "Sources/faro"
        ),
        .target(name: "FaroApp", dependencies: ["FaroCore"], path: "Sources/FaroApp"),
        .target(name: "FaroInstall", path: "Sources/FaroInstall"),
        .target(
            name: "FaroUI",
            dependencies: [
                "FaroApp", "FaroCore", "FaroBluetooth", "FaroInstall", "CGtk", "CNotify", "CAppIndicator", "CShim",
            ],
            path: "Sources/FaroUI"),
        .target(name: "FaroTestSupport", dependencies: ["CShim"], path: "Tests/FaroTestSupport"),
        .testTarget(name: "FaroCoreTests", dependencies: ["FaroCore"], path: "Tests/FaroCoreTests"),
        .testTarget(
            name: "FaroNetTests",
            dependencies: ["FaroNet", "FaroStore", "FaroCore", "FaroApp", "FaroTestSupport", "CGio"],
            path: "Tests/FaroNetTests"
        ),
        .testTarget(
            name: "FaroStoreTests", dependencies: ["FaroStore", "FaroCore", "FaroTestSupport"],
            path: "Tests/FaroStoreTests"
        ),
        .testTarget(name: "FaroAppTests", dependencies: ["FaroApp", "FaroCore"], path: "Tests/FaroAppTests"),
        .testTarget(
            name: "FaroUITests", dependencies: ["FaroTestSupport", "faro", "FaroApp", "FaroCore", "FaroStore"],
            path: "Tests/FaroUITests"
        ),
        .testTarget(name: "CShimTests", dependencies: ["CShim"], path: "Tests/CShimTests"),
        .testTarget(
            name: "FaroWebTests",
            dependencies: [
                "FaroWeb", "FaroCore", "FaroStore", "FaroUI", "CGtk", "FaroTestSupport", "faro", "faro-backend",
            ],
            path: "Tests/FaroWebTests"
        ),
        .testTarget(
            name: "FaroCLITests", dependencies: ["FaroCore", "FaroTestSupport", "faro"], path: "Tests/FaroCLITests"),
        .testTarget(
            name: "FaroBluetoothTests", dependencies: ["FaroBluetooth", "FaroCore", "FaroTestSupport", "CGio", "faro"],
            path: "Tests/FaroBluetoothTests", exclude: ["Templates"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
