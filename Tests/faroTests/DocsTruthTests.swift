import FaroTestSupport
import Foundation
import Testing

@testable import faro

/// The docs say what the code does: every command and option the built `faro` and `faro-backend` print in their
/// help is in docs/cli.md and docs/cli.md names no option a command lacks, every GSettings key is in
/// docs/configuration.md, every repository path the README, docs/ and bench/README.md name exists, and the window
/// reads every option it declares.
@Suite(.serialized) struct DocsTruthTests {
    let root = Paths.packageRoot

    func file(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    /// The help text of `program arguments`, run with a private home and no session bus or display.
    func help(_ program: String, _ arguments: [String]) throws -> String {
        let home = try TemporaryDirectory("faro-docs")
        var env = home.xdgEnvironment
        env["DBUS_SESSION_BUS_ADDRESS"] = "disabled:"
        env["DISPLAY"] = ""
        env["WAYLAND_DISPLAY"] = ""
        let result = try ChildProcess.run(Paths.executable(program), arguments, environment: env, timeout: 60)
        try #require(result.status == 0, "\(program) \(arguments): \(result.stderr)")
        return result.stdout
    }

    /// The lines of `text` after the line `title` up to the next blank line.
    func block(_ text: String, after title: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: title) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    /// Option names (`--json`, `-o`) in `text`.
    func optionNames(_ text: String) -> Set<String> {
        let pattern = #/(?:^|[^\w-])(--?[a-zA-Z][a-zA-Z0-9-]*)/#
        return Set(text.matches(of: pattern).map { String($0.output.1) })
    }

    /// The options a help text declares: the names in its usage lines and in its option table's left column.
    func declaredOptions(_ helpText: String) -> Set<String> {
        var forms = block(helpText, after: "Options:").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .map { line in String(line.dropFirst(2).split(separator: "  ", maxSplits: 1).first ?? "") }
        let lines = helpText.split(separator: "\n").map(String.init)
        forms += lines.prefix { !$0.isEmpty }.map { $0.replacingOccurrences(of: "Usage:", with: "") }
        return optionNames(forms.joined(separator: " ")).subtracting(["-h", "--help"])
    }

    /// docs/cli.md's part about `command` ("" is the window): its heading's section, or the table rows naming it;
    /// `own`: only up to the next heading of any level (not the parts of commands under it).
    func section(_ doc: String, command: String, own: Bool = false) -> String? {
        let lines = doc.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func level(_ line: String) -> Int { line.hasPrefix("#") ? line.prefix { $0 == "#" }.count : 0 }
        let heading: (String) -> Bool =
            command.isEmpty
            ? { $0 == "## The window" }
            : { line in
                level(line) > 0
                    && ["`\(command) ", "`\(command)`", "`\(command) ["].contains { line.contains($0) }
            }
        if let start = lines.firstIndex(where: heading) {
            let depth = level(lines[start])
            let end =
                lines[(start + 1)...].firstIndex { level($0) > 0 && (own || level($0) <= depth) } ?? lines.count
            return lines[start..<end].joined(separator: "\n")
        }
        let rows = lines.filter { $0.hasPrefix("|") && ($0.contains("`\(command) ") || $0.contains("`\(command)`")) }
        return rows.isEmpty ? nil : rows.joined(separator: "\n")
    }

    @Test func everyCommandAndOptionOfTheHelpIsInTheCommandLineDoc() throws {
        let doc = try file("docs/cli.md")
        let overview = try help("faro", ["--help"])
        let commands = block(overview, after: "Commands:").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(commands.contains("decode") && commands.contains("help"), "\(overview)")
        var missing: [String] = []
        for option in optionNames(block(overview, after: "Options:").joined(separator: " "))
        where !optionNames(doc).contains(option) {
            missing.append("faro \(option)")
        }
        // The window: its usage line in the overview and its own help.
        let windowLines = block(overview, after: "Usage:").filter { $0.hasPrefix("  faro [") }
        #expect(windowLines.count == 1, "\(overview)")
        let windowOptions = optionNames(windowLines.joined()).union(
            declaredOptions(try help("faro", ["--demo", "--help"])))
        let window = section(doc, command: "") ?? ""
        for option in windowOptions.sorted() where !optionNames(window).contains(option) {
            missing.append("faro \(option) (## The window)")
        }
        for command in commands {
            guard let part = section(doc, command: "faro \(command)") else {
                missing.append("faro \(command)")
                continue
            }
            let documented = optionNames(part)
            for option in declaredOptions(try help("faro", [command, "--help"])).sorted()
            where !documented.contains(option) {
                missing.append("faro \(command) \(option)")
            }
        }
        let backend = section(doc, command: "faro-backend") ?? ""
        for option in declaredOptions(try help("faro-backend", ["--help"])).sorted()
        where !optionNames(backend).contains(option) {
            missing.append("faro-backend \(option)")
        }
        #expect(missing.isEmpty, "not in docs/cli.md: \(missing.joined(separator: ", "))")
    }

    /// docs/cli.md names no option a command lacks: every option in a command's part of the page is one that
    /// command declares (its `--help` is printed from its declarations), or one of the program's own.
    @Test func theCommandLineDocNamesNoOptionACommandLacks() throws {
        let doc = try file("docs/cli.md")
        let overview = try help("faro", ["--help"])
        let programOptions = optionNames(block(overview, after: "Options:").joined(separator: " "))
        let commands = block(overview, after: "Commands:").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(commands.count >= 10, "\(overview)")
        var extra: [String] = []
        func check(_ part: String?, _ name: String, declared: Set<String>) {
            guard let part else { return extra.append("\(name): no part of docs/cli.md") }
            for option in optionNames(part).subtracting(declared).subtracting(["-h", "--help"]).sorted() {
                extra.append("\(name) \(option)")
            }
        }
        let window = declaredOptions(try help("faro", ["--demo", "--help"]))
        check(section(doc, command: "", own: true), "faro", declared: window.union(programOptions))
        for command in commands {
            check(
                section(doc, command: "faro \(command)", own: true), "faro \(command)",
                declared: declaredOptions(try help("faro", [command, "--help"])))
        }
        for program in ["faro-backend", "faro-bench"] {
            check(
                section(doc, command: program, own: true), program,
                declared: declaredOptions(try help(program, ["--help"])))
        }
        #expect(extra.isEmpty, "in docs/cli.md but not declared by the command: \(extra.joined(separator: ", "))")
    }

    /// The window reads every option it declares: each one given alone (with a value) parses, where a declared
    /// option the window did not read would be refused as unexpected. `faro --help`'s usage line for the window
    /// names every listed one. (An option it does not declare cannot be parsed at all.)
    @Test func theWindowReadsEveryOptionItDeclares() throws {
        let declared = GUIOptions.Option.declared
        for option in declared {
            var words = option.names.prefix(1).map { $0 }
            if let placeholder = option.placeholder {
                words.append(placeholder.hasPrefix("bluez") ? "demo" : placeholder == "X" ? "2" : "v")
            }
            var args = Arguments(words, declared: declared)
            do {
                _ = try GUIOptions(&args)
                try args.finish()
            } catch { Issue.record("\(words): \(error)") }
        }
        let overview = try help("faro", ["--help"])
        let windowLine = block(overview, after: "Usage:").first { $0.hasPrefix("  faro [") } ?? ""
        #expect(optionNames(windowLine) == Set(declared.filter(\.listed).flatMap(\.names)), "\(windowLine)")
    }

    @Test func everySettingIsInTheConfigurationDoc() throws {
        let schema = try file("data/io.github.faro.Faro.gschema.xml.in")
        let keys = schema.matches(of: #/<key name="([a-z0-9-]+)"/#).map { String($0.output.1) }
        #expect(keys.count >= 10)
        let doc = try file("docs/configuration.md")
        let missing = keys.filter { !doc.contains("`\($0)`") }
        #expect(missing.isEmpty, "not in docs/configuration.md: \(missing)")
    }

    /// Backticked paths under the repository's folders (from the root) and relative links (from the page's folder).
    @Test func everyRepositoryPathTheDocsNameExists() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }
        let pages = ["README.md", "bench/README.md"] + docs.map { "docs/" + $0 }
        let roots = [
            "Sources/", "Tests/", "scripts/", "docs/", "data/", "bench/", "Resources/", "po/", "debian/", "Plugins/",
            "tools/", ".ci/",
        ]
        // `FaroApp/BeaconList/…` names a file under Sources/.
        let modules = try FileManager.default.contentsOfDirectory(atPath: root + "/Sources").map { $0 + "/" }
        var missing: [String] = []
        for page in pages {
            let text = try file(page)
            let folder = (page as NSString).deletingLastPathComponent
            var named: [String] = []
            for match in text.matches(of: #/`([^`\s]+)`/#) {
                var path = String(match.output.1)
                guard !path.contains(where: { "<>*{}…$|".contains($0) }) else { continue }
                if let colon = path.firstIndex(of: ":") { path = String(path[..<colon]) }
                if roots.contains(where: { path.hasPrefix($0) }) {
                    named.append(path)
                } else if modules.contains(where: { path.hasPrefix($0) }) {
                    named.append("Sources/" + path)
                }
            }
            for match in text.matches(of: #/\]\(([^)\s]+)\)/#) {
                var target = String(match.output.1)
                guard !target.contains("://"), !target.hasPrefix("mailto:"), !target.hasPrefix("#") else { continue }
                if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
                named.append(folder.isEmpty ? target : folder + "/" + target)
            }
            for path in named where !FileManager.default.fileExists(atPath: root + "/" + path) {
                missing.append("\(page): \(path)")
            }
        }
        #expect(missing.isEmpty, "named but not in the repository: \(missing.joined(separator: ", "))")
    }
}
