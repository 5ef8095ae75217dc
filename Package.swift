// swift-tools-version:6.0
// Faro: a beacon companion for the Linux desktop.
//
// C libraries come in through one `systemLibrary` target each (found with pkg-config) and one small C shim
// (`CShim`) for the macros and variadic functions Swift cannot call. `FaroCore` is pure Swift and imports no C
// module: decoding, distance, ranging, regions and form rules can be read and tested without any system library.
import PackageDescription

#if canImport(Glibc)
    import Glibc
#endif

/// One system-library target per C library: a module map in `Sources/<name>` and the apt package that provides it.
func cLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig, providers: [.apt([apt])])
}

/// How the release `faro` is linked, for the window's launch time and memory (bench/window, bench/memory-steady):
/// what is resident of the executable is its relocated data and mostly the code run at launch, spread over 10 MB of
/// text in 64 KB fault-around windows.
/// - `-use-ld=lld`: ld.lld, which comes with the Swift toolchain, instead of swiftc's default ld.gold, for the next
///   two options, which gold does not have.
/// - `-z pack-relative-relocs` (where glibc reads them, 2.36 and later): the executable's 40,000 relative
///   relocations (Swift metadata, witness tables and the runtime's pointers) are stored as an 8 KB bitmap (DT_RELR)
///   instead of a 944 KB table of 24-byte entries, which ld.so read, and so kept resident, at every start. The
///   address-space randomisation of a position-independent executable stays.
/// - `--symbol-ordering-file`: the functions the window runs from launch to its first rows, then those `--demo`
///   runs (`bench/window/startup-order.txt`, made by `bench/window/startup-order.sh`), are laid out side by side,
///   ahead of the rest (every function has its own section, see `releaseFunctionSections`). A stale list only costs
///   memory: names that no longer exist are skipped (`--no-warn-symbol-ordering`), new functions go after the listed
///   ones.
/// - `-T scripts/unnamed-functions.ld` (added to lld's default layout, `INSERT BEFORE .text`): the functions LLVM
///   emits without a symbol (closure context destroyers, some thunks), which no list can name, are gathered in
///   one 13.8 KB section next to the listed ones; scattered among the unlisted code, each one run kept a 64 KB window
///   resident (0.9 MB in all after 5 minutes of `--demo`).
/// - `--no-export-dynamic`: the static Swift runtime's link arguments export every public symbol of the executable
///   (5,000), which nothing loads by name; their tables were resident, and every library's symbol lookups
///   searched them first.
/// - `-L scripts/static-libstdc++`: the C++ runtime the static Swift runtime needs is linked statically, through
///   the linker script there. The shared libstdc++ was 1.2 MB resident (its symbol tables, searched by every
///   library's lookups, and scattered code) for the few functions Faro calls; nothing else in the process loads it.
/// lld resolves an undefined symbol from any archive on the command line, wherever it stands (gold searches each
/// archive only where it stands): a module that imported all of Foundation (as SwiftPM's `Bundle.module` accessors
/// do) would pull its archive and ICU's 30 MB of data in. `scripts/check-deb.sh` and
/// `bench/window/startup-order.sh` refuse such an executable.
let startupOrder = Context.packageDirectory + "/bench/window/startup-order.txt"
let staticLibstdcxx = Context.packageDirectory + "/scripts/static-libstdc++"
let unnamedFunctions = Context.packageDirectory + "/scripts/unnamed-functions.ld"

/// Whether the C library that release builds link against reads DT_RELR (glibc 2.36 and later). An executable
/// with packed relocations needs it at run time; the .deb's libc6 dependency follows from the link. Declared ahead
/// of `faroReleaseLinking`: a manifest's globals are set in the order they are written.
let glibcReadsPackedRelocations: Bool = {
    #if canImport(Glibc)
        var text = [UInt8](repeating: 0, count: 64)  // "glibc 2.36"
        let length = text.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { confstr(Int32(_CS_GNU_LIBC_VERSION), $0.baseAddress, $0.count) }
        }
        guard length > 1 else { return false }
        let version = String(decoding: text.prefix(length - 1), as: UTF8.self).split(separator: " ").last ?? ""
        let numbers = version.split(separator: ".").compactMap { Int($0) }
        return numbers.count >= 2 && (numbers[0], numbers[1]) >= (2, 36)
    #else
        return false
    #endif
}()

let faroReleaseLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "--symbol-ordering-file=" + startupOrder,
            "-Xlinker", "--no-warn-symbol-ordering", "-L" + staticLibstdcxx, "-Xlinker", "-T", "-Xlinker",
            unnamedFunctions,
        ] + (glibcReadsPackedRelocations ? ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] : []),
        .when(configuration: .release))
]

/// Release builds give every Swift and C function a section of its own (as the static Swift runtime's are), so
/// that the linker can drop the unused ones and order the rest (`faroReleaseLinking`).
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
        .target(name: "FaroResources", path: "Sources/FaroResources", plugins: ["CompileResources"]),
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
        .executableTarget(
            name: "faro-backend",
            dependencies: ["FaroCore", "FaroStore", "FaroInstall", "FaroCommandLine", "FaroGLib", "CSoup"],
            path: "Sources/faro-backend"
        ),
        // The measurements behind `make bench` (bench/README.md): not part of the shipped `faro`.
        .executableTarget(
            name: "faro-bench", dependencies: ["FaroCore", "FaroApp", "FaroCommandLine"], path: "Sources/faro-bench"),
        // The command-line parser and help (usage, manual page, shell completion) of faro and faro-backend.
        .target(name: "FaroCommandLine", dependencies: ["FaroCore"], path: "Sources/FaroCommandLine"),
        // Settings in GSettings, the app key in the Secret Service (or a 0600 file), the move from SQLite.
        .target(
            name: "FaroSettings", dependencies: ["FaroApp", "FaroCore", "FaroGLib", "FaroStore", "CSecret"],
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
                "FaroCore", "FaroGLib", "FaroBluetooth", "FaroStore", "FaroNet", "FaroApp", "FaroUI", "FaroWeb",
                "FaroInstall",
                "FaroCommandLine", "FaroSettings",
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
        .target(name: "FaroTestSupport", dependencies: ["CShim"], path: "Tests/FaroTestSupport"),
        .testTarget(name: "FaroCoreTests", dependencies: ["FaroCore"], path: "Tests/FaroCoreTests"),
        .testTarget(
            name: "FaroNetTests",
            dependencies: ["FaroNet", "FaroCurl", "FaroStore", "FaroCore", "FaroApp", "FaroTestSupport", "CGio"],
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
        .testTarget(name: "CShimTests", dependencies: ["CShim", "CGio"], path: "Tests/CShimTests"),
        .testTarget(
            name: "FaroGLibTests", dependencies: ["FaroGLib", "FaroTestSupport", "CGio"], path: "Tests/FaroGLibTests"),
        .testTarget(
            name: "FaroSettingsTests",
            dependencies: ["FaroSettings", "FaroApp", "FaroStore", "FaroTestSupport", "CSecret", "faro"],
            path: "Tests/FaroSettingsTests"
        ),
        .testTarget(
            name: "FaroPackagingTests", dependencies: ["FaroCommandLine", "FaroInstall", "FaroTestSupport"],
            path: "Tests/FaroPackagingTests"
        ),
        .testTarget(
            name: "FaroCommandLineTests",
            dependencies: ["FaroCommandLine", "FaroApp", "FaroTestSupport", "faro", "faro-backend"],
            path: "Tests/FaroCommandLineTests"
        ),
        .testTarget(
            name: "FaroWebTests",
            dependencies: [
                "FaroWeb", "FaroCurl", "FaroNet", "FaroCore", "FaroStore", "FaroUI", "CGtk", "FaroTestSupport", "faro",
                "faro-backend",
            ],
            path: "Tests/FaroWebTests"
        ),
        .testTarget(
            name: "FaroCLITests", dependencies: ["FaroCore", "FaroTestSupport", "faro"], path: "Tests/FaroCLITests"),
        .testTarget(
            name: "FaroBluetoothTests",
            dependencies: ["FaroBluetooth", "FaroCore", "FaroGLib", "FaroTestSupport", "CGio", "faro"],
            path: "Tests/FaroBluetoothTests", exclude: ["Templates"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + releaseFunctionSections
}
