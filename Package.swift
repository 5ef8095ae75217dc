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

/// How the release `faro` is linked (bench/README.md, "Build and run-time tuning"): the functions the window runs
/// from launch to its first rows, then those `--demo` runs (`bench/window/startup-order.txt`, made by
/// `bench/window/startup-order.sh`), laid out side by side ahead of the rest, with the functions LLVM emits without a
/// symbol gathered next to them (`scripts/unnamed-functions.ld`, added to lld's default layout). Every function has a
/// section of its own in release builds so that ld.lld (which comes with the toolchain) can order them. Measured side
/// by side, this keeps 2.3–2.9 MB less of the executable resident at the window's peak. A stale list only costs
/// memory: names that no longer exist are skipped, new functions go after the listed ones; `make test` fails once more
/// than a tenth of them are gone from the release binary (Tests/FaroPackagingTests/StartupOrderTests.swift).
let startupOrder = Context.packageDirectory + "/bench/window/startup-order.txt"
let unnamedFunctions = Context.packageDirectory + "/scripts/unnamed-functions.ld"
let faroReleaseLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-Xlinker", "--symbol-ordering-file=" + startupOrder, "-Xlinker",
            "--no-warn-symbol-ordering", "-Xlinker", "-T", "-Xlinker", unnamedFunctions,
        ], .when(configuration: .release))
]
let releaseFunctionSections: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))
]

let package = Package(
    name: "Faro",
    products: [
        .executable(name: "faro", targets: ["faro"]),
        .executable(name: "faro-backend", targets: ["faro-backend"]),
        .executable(name: "faro-bench", targets: ["faro-bench"]),
        .library(name: "FaroCore", targets: ["FaroCore"]),
    ],
    targets: [
        cLibrary("CGtk", pkgConfig: "gtk+-3.0", apt: "libgtk-3-dev"),
        cLibrary("CNotify", pkgConfig: "libnotify", apt: "libnotify-dev"),
        cLibrary("CBluez", pkgConfig: "bluez", apt: "libbluetooth-dev"),
        cLibrary("CSQLite", pkgConfig: "sqlite3", apt: "libsqlite3-dev"),
        // libcurl's headers only: the library is opened on first use (CShim/curl_loader.c), not linked.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        cLibrary("CSoup", pkgConfig: "libsoup-3.0", apt: "libsoup-3.0-dev"),
        cLibrary("CGio", pkgConfig: "gio-2.0", apt: "libglib2.0-dev"),
        cLibrary("CAppIndicator", pkgConfig: "ayatana-appindicator3-0.1", apt: "libayatana-appindicator3-dev"),
        cLibrary("CQREncode", pkgConfig: "libqrencode", apt: "libqrencode-dev"),
        // libsecret, and GSettings with its backend API (FaroSettings).
        cLibrary("CSecret", pkgConfig: "libsecret-1", apt: "libsecret-1-dev"),
        // The views and styles in Resources/, compiled with glib-compile-resources at build time and embedded.
        .plugin(
            name: "CompileResources", capability: .buildTool(), dependencies: ["embed-resource"],
            path: "Plugins/CompileResources"),
        .executableTarget(name: "embed-resource", path: "Sources/embed-resource"),
        .target(
            name: "FaroResources", dependencies: ["FaroCore"], path: "Sources/FaroResources",
            plugins: ["CompileResources"]),
        .target(
            name: "CShim",
            dependencies: ["CGio", "CSQLite", "CCurl"],
            path: "Sources/CShim",
            cSettings: [
                // libxml2's headers only, for CShim/xml_loader.c: the library is opened on first use, not linked (a
                // `systemLibrary` target's pkg-config would link it). libxml2's own pkg-config file names this folder.
                .unsafeFlags(["-I/usr/include/libxml2"]),
                .unsafeFlags(["-ffunction-sections"], .when(configuration: .release)),
            ]
        ),
        .target(
            name: "FaroCore", path: "Sources/FaroCore",
            // The engine is generic over its filter; let release builds specialize it inside the callers.
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
        ),
        .target(name: "FaroStore", dependencies: ["FaroCore", "CSQLite", "CShim"], path: "Sources/FaroStore"),
        // Faro's one libcurl wrapper: every easy handle of FaroNet and FaroWeb is made here, with its protections.
        .target(name: "FaroCurl", dependencies: ["CCurl", "CShim"], path: "Sources/FaroCurl"),
        .target(
            name: "FaroNet", dependencies: ["FaroCore", "FaroStore", "FaroCurl", "FaroGLib", "CGio"],
            path: "Sources/FaroNet"
        ),
        // The local backend: its code in FaroBackend, which `faro` links too (the installed faro-backend is a link to
        // faro, run under that name); its own executable for SwiftPM builds and the tests.
        .target(
            name: "FaroBackend",
            dependencies: ["FaroCore", "FaroStore", "FaroInstall", "FaroCommandLine", "FaroGLib", "CSoup"],
            path: "Sources/FaroBackend"
        ),
        .executableTarget(name: "faro-backend", dependencies: ["FaroBackend"], path: "Sources/faro-backend"),
        // The measurements behind `make bench` (bench/README.md): not part of the shipped `faro`.
        .executableTarget(
            name: "faro-bench", dependencies: ["FaroCore", "FaroApp", "FaroCommandLine", "FaroStore"],
            path: "Sources/faro-bench"),
        // The command-line parser and help (usage, manual page, shell completion) of faro and faro-backend.
        .target(name: "FaroCommandLine", dependencies: ["FaroCore"], path: "Sources/FaroCommandLine"),
        // Settings in GSettings, the app key in the Secret Service (or a 0600 file), the move from SQLite.
        .target(
            name: "FaroSettings",
            dependencies: ["FaroApp", "FaroCore", "FaroGLib", "FaroInstall", "FaroStore", "CSecret"],
            path: "Sources/FaroSettings"
        ),
        // GLib at the C boundary, once: closures owned by GLib, main-context sources, signals, the D-Bus client.
        .target(name: "FaroGLib", dependencies: ["CGio", "CShim"], path: "Sources/FaroGLib"),
        .target(
            name: "FaroBluetooth", dependencies: ["FaroCore", "FaroGLib", "CGio", "CBluez"],
            path: "Sources/FaroBluetooth"
        ),
        .target(
            name: "FaroWeb", dependencies: ["FaroCore", "FaroCurl", "FaroGLib", "CShim", "CGio", "CQREncode"],
            path: "Sources/FaroWeb"
        ),
        .executableTarget(
            name: "faro",
            dependencies: [
                "FaroCore", "FaroGLib", "FaroBluetooth", "FaroStore", "FaroCurl", "FaroNet", "FaroApp", "FaroUI",
                "FaroWeb",
                "FaroInstall", "FaroBackend",
                "FaroCommandLine", "FaroSettings", "CShim",
            ],
            path: "Sources/faro",
            linkerSettings: faroReleaseLinking
        ),
        .target(
            name: "FaroApp", dependencies: ["FaroCore"], path: "Sources/FaroApp",
            // The beacon session is generic over its stage; let release builds specialize it for its callers.
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
        ),
        .target(name: "FaroInstall", path: "Sources/FaroInstall"),
        .target(
            name: "FaroUI",
            dependencies: [
                "FaroApp", "FaroCore", "FaroGLib", "FaroInstall", "FaroResources", "CGtk", "CNotify", "CAppIndicator",
                "CShim",
            ],
            path: "Sources/FaroUI"),
        // MARK: Tests: one target per module, named after it; end-to-end suites of the window in their own target.
        .target(
            name: "FaroTestSupport", dependencies: ["CShim", "FaroCore", "FaroWeb"], path: "Tests/FaroTestSupport"),
        .testTarget(name: "CShimTests", dependencies: ["CShim", "CGio"], path: "Tests/CShimTests"),
        .testTarget(name: "FaroCoreTests", dependencies: ["FaroCore"], path: "Tests/FaroCoreTests"),
        .testTarget(
            name: "FaroStoreTests", dependencies: ["FaroStore", "FaroCore", "FaroTestSupport"],
            path: "Tests/FaroStoreTests"
        ),
        .testTarget(
            name: "FaroNetTests",
            dependencies: ["FaroNet", "FaroCurl", "FaroStore", "FaroCore", "FaroApp", "FaroTestSupport", "CGio"],
            path: "Tests/FaroNetTests"
        ),
        .testTarget(
            name: "FaroCurlTests", dependencies: ["FaroCurl", "FaroTestSupport"], path: "Tests/FaroCurlTests"),
        .testTarget(
            name: "FaroWebTests",
            dependencies: ["FaroWeb", "FaroCurl", "FaroNet", "FaroCore", "FaroTestSupport", "CGtk"],
            path: "Tests/FaroWebTests"
        ),
        .testTarget(name: "FaroAppTests", dependencies: ["FaroApp", "FaroCore"], path: "Tests/FaroAppTests"),
        .testTarget(
            name: "FaroGLibTests", dependencies: ["FaroGLib", "FaroTestSupport", "CGio"], path: "Tests/FaroGLibTests"),
        .testTarget(
            name: "FaroBluetoothTests",
            dependencies: ["FaroBluetooth", "FaroCore", "FaroGLib", "FaroTestSupport", "CGio"],
            path: "Tests/FaroBluetoothTests", exclude: ["Templates"]
        ),
        .testTarget(
            name: "FaroSettingsTests",
            dependencies: ["FaroSettings", "FaroApp", "FaroStore", "FaroTestSupport", "CSecret", "faro"],
            path: "Tests/FaroSettingsTests"
        ),
        .testTarget(
            name: "FaroUITests",
            dependencies: [
                "FaroUI", "FaroWeb", "FaroApp", "FaroCore", "FaroStore", "FaroGLib", "CGtk", "FaroTestSupport", "faro",
            ],
            path: "Tests/FaroUITests"
        ),
        .testTarget(
            name: "FaroCommandLineTests",
            dependencies: ["FaroCommandLine", "FaroApp", "FaroTestSupport", "faro", "faro-backend"],
            path: "Tests/FaroCommandLineTests"
        ),
        .testTarget(
            name: "FaroPackagingTests", dependencies: ["FaroCommandLine", "FaroInstall", "FaroTestSupport"],
            path: "Tests/FaroPackagingTests"
        ),
        // The `faro` executable: its commands and adapters, run as a user runs them.
        .testTarget(
            name: "faroTests",
            dependencies: [
                "faro", "faro-backend", "FaroWeb", "FaroNet", "FaroStore", "FaroApp", "FaroCore", "FaroSettings",
                "FaroTestSupport",
            ],
            path: "Tests/faroTests"
        ),
        .testTarget(
            name: "faro-backendTests", dependencies: ["faro-backend", "FaroNet", "FaroCore", "FaroTestSupport"],
            path: "Tests/faro-backendTests"
        ),
        // End to end: the real window under Xvfb on a private bus, driven through AT-SPI (Tests/UI).
        .testTarget(
            name: "WindowEndToEndTests", dependencies: ["FaroTestSupport", "faro", "faro-backend"],
            path: "Tests/WindowEndToEndTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + releaseFunctionSections
}
