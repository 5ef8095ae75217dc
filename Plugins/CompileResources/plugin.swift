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
        let bundle = context.pluginWorkDirectoryURL.appending(path: "faro.gresource")
        let swift = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        let inputs = try FileManager.default.subpathsOfDirectory(atPath: resources.path())
            .filter { $0.hasSuffix(".ui") || $0.hasSuffix(".css") || $0.hasSuffix(".xml") }
            .map { resources.appending(path: $0) }
        return [
            .buildCommand(
                displayName: "Compiling the GResource bundle (Resources/faro.gresource.xml)",
                executable: try systemTool("glib-compile-resources", package: "libglib2.0-dev-bin"),
                arguments: ["--sourcedir", resources.path(), "--target", bundle.path(), manifest.path()],
                inputFiles: inputs, outputFiles: [bundle]),
            .buildCommand(
                displayName: "Embedding faro.gresource",
                executable: try context.tool(named: "embed-resource").url,
                arguments: [bundle.path(), swift.path()], inputFiles: [bundle], outputFiles: [swift]),
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
