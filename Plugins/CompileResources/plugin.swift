// Compiles Resources/faro.gresource.xml (the GtkBuilder views and the CSS) with glib-compile-resources at build
// time and embeds the bundle in the FaroResources module, so every build of faro carries its own views and no
// SwiftPM resource bundle (which needs the full Foundation) is involved.
import Foundation
import PackagePlugin

@main
struct CompileResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let resources = context.package.directoryURL.appending(path: "Resources")
        let manifest = resources.appending(path: "faro.gresource.xml")
        let swift = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        let inputs = try FileManager.default.subpathsOfDirectory(atPath: resources.path())
            .filter { $0.hasSuffix(".ui") || $0.hasSuffix(".css") || $0.hasSuffix(".xml") }
            .map { resources.appending(path: $0) }
        let compiler = try systemTool("glib-compile-resources", package: "libglib2.0-dev-bin")
        // One command with one output, the Swift file: any other output file (the compiled bundle) would become a
        // SwiftPM resource with a Foundation-importing `Bundle.module` accessor.
        return [
            .buildCommand(
                displayName: "Compiling and embedding the GResource bundle (Resources/faro.gresource.xml)",
                executable: try context.tool(named: "embed-resource").url,
                arguments: [
                    compiler.path(), resources.path(), manifest.path(), context.pluginWorkDirectoryURL.path(),
                    swift.path(),
                ],
                inputFiles: inputs + [compiler], outputFiles: [swift])
        ]
    }
}

/// A program on the system's PATH (build plugins see only the package's own tools through `context.tool`).
func systemTool(_ name: String, package: String) throws -> URL {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(folder)).appending(path: name)
        if FileManager.default.isExecutableFile(atPath: candidate.path()) { return candidate }
    }
    throw PluginFailure(description: "\(name) is not installed (Debian package \(package); make deps installs it)")
}

/// Why the plugin could not plan the build.
struct PluginFailure: Error, CustomStringConvertible {
    var description: String
}
