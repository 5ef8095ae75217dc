import FaroCommandLine
import FaroTestSupport
import Foundation
import Testing

/// `faro` and `faro-backend` as a Unix tool: every command answers --help (and `faro help CMD`) with its usage,
/// options and an example; --version; usage errors name the command's usage; the manual pages carry every option
/// the help lists, and groff reads them without a warning.
@Suite("faro and faro-backend help")
struct CommandHelpTests {
    let faro = Paths.executable("faro")
    let backend = Paths.executable("faro-backend")

    func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        // No display: without a command, faro prints its help instead of opening the window.
        try ChildProcess.run(
            executable, arguments, environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "DBUS_SESSION_BUS_ADDRESS": ""],
            timeout: 30)
    }

    /// The command words `faro --help` lists under "Commands:".
    func commands() throws -> [String] {
        let help = try run(faro, ["--help"]).stdout
        let section = try #require(help.components(separatedBy: "\nCommands:\n").last)
        return section.components(separatedBy: "\n\n")[0].split(separator: "\n")
            .compactMap { line in
                line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first : nil
            }
            .map(String.init)
    }

    @Test func everyCommandHasUsageOptionsAndAnExample() throws {
        let names = try commands()
        #expect(
            Set(names).isSuperset(of: [
                "decode", "range", "scan", "register", "outbox", "page", "save", "show",
                "share", "app-key", "help",
            ]), "\(names)")
        // The measurements live in faro-bench; the shipped faro has no benchmark command.
        #expect(!names.contains("bench"), "\(names)")
        for name in names {
            let help = try run(faro, [name, "--help"])
            #expect(help.status == 0, "\(name): \(help.stderr)")
            #expect(help.stdout.hasPrefix("Usage: faro \(name)"), "\(name): \(help.stdout)")
            #expect(help.stdout.contains("\nOptions:\n"), "\(name)")
            #expect(help.stdout.contains("\n  $ faro \(name)") || help.stdout.contains("| faro \(name)"), "\(name)")
            #expect(try run(faro, ["help", name]).stdout == help.stdout, "\(name)")
            #expect(try run(faro, [name, "-h"]).stdout == help.stdout, "\(name)")
        }
    }

    @Test func theIssuesExampleRegisterHelpIsNoLongerAnError() throws {
        let r = try run(faro, ["register", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("--telefono T"))
        #expect(r.stderr.isEmpty)
    }

    @Test func theWindowsOptionsHaveTheirHelpToo() throws {
        let r = try run(faro, ["--demo", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("Usage: faro [--demo]"))
        #expect(r.stdout.contains("--background"))
    }

    @Test func versionsComeFromOnePlace() throws {
        #expect(try run(faro, ["--version"]).stdout == "faro \(FaroVersion.string)\n")
        #expect(try run(backend, ["--version"]).stdout == "faro-backend \(FaroVersion.string)\n")
    }

    @Test func aUsageErrorShowsThatCommandsUsage() throws {
        let r = try run(faro, ["register", "--nombre", "Bo", "--bogus"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("faro: unexpected argument '--bogus'\nUsage: faro register --nombre N"))
        #expect(r.stderr.contains("Run 'faro help register' for more."))
        let unknown = try run(faro, ["frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown command 'frobnicate'"))
        #expect(try run(faro, ["help", "frobnicate"]).status == 2)
    }

    @Test func faroBackendParsesWithTheSameRules() throws {
        let help = try run(backend, ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("Usage: faro-backend [--port N]"))
        #expect(help.stdout.contains("--version"))
        for (arguments, reason) in [
            (["--port", "70000"], "--port must be a number from 0 to 65535"),
            (["--bogus"], "unexpected argument '--bogus'"),
            (["--fail-rate", "2"], "--fail-rate must be a number from 0.0 to 1.0"),
            (["--refuse-for", "5", "--refuse-every", "2"], "--refuse-every must be longer than --refuse-for"),
            (["--port"], "--port needs a value"),
        ] {
            let r = try run(backend, arguments)
            #expect(r.status == 2, "\(arguments)")
            #expect(r.stderr.hasPrefix("faro-backend: \(reason)\n"), "\(arguments): \(r.stderr)")
        }
    }

    /// The page is read back through man itself: each option form of every command's --help is in it.
    @Test func theManualPagesCarryEveryOptionOfTheHelp() throws {
        let folder = try TemporaryDirectory("faro-man")
        for (program, arguments, helps) in [
            (faro, ["help", "--man"], try commands().map { ["help", $0] }),
            (backend, ["--man"], [["--help"]]),
        ] {
            let page = try run(program, arguments)
            #expect(page.status == 0)
            let file = folder.file("page.1")
            try page.stdout.write(toFile: file, atomically: true, encoding: .utf8)
            let lint = try ChildProcess.run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", file])
            #expect(lint.status == 0 && lint.stderr.isEmpty, "groff: \(lint.stderr)")
            let shown = try ChildProcess.run(
                "/usr/bin/man", ["-l", "-P", "cat", file], environment: ["MANWIDTH": "250", "LANG": "C.UTF-8"])
            #expect(shown.status == 0, "\(shown.stderr)")
            for words in helps {
                let help = try run(program, words).stdout
                let forms = help.components(separatedBy: "\nOptions:\n")[1].components(separatedBy: "\n\n")[0]
                    .split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
                    .map { $0.dropFirst(2).components(separatedBy: "  ")[0] }
                for form in forms where form != "-h, --help" {
                    #expect(shown.stdout.contains(form), "\(words): '\(form)' is not in the manual page")
                }
                let usage = help.split(separator: "\n")[0].dropFirst("Usage: ".count)
                let squeezed = shown.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                #expect(squeezed.contains(usage), "\(words): the usage line is not in the manual page")
            }
        }
    }

    @Test func theBashCompletionCompletesCommandsOptionsAndValues() throws {
        let folder = try TemporaryDirectory("faro-completion")
        let script = folder.file("faro.bash")
        try run(faro, ["help", "--bash-completion"]).stdout.write(toFile: script, atomically: true, encoding: .utf8)
        #expect(FileManager.default.createFile(atPath: folder.file("walk.jsonl"), contents: Data()))
        func complete(_ words: String) throws -> String {
            let r = try ChildProcess.run(
                "/bin/bash",
                [
                    "-c",
                    #"cd "$1" && source "$2" && read -ra COMP_WORDS <<<"$3"; [ "${3: -1}" = " " ] && COMP_WORDS+=(""); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _faro; echo "${COMPREPLY[*]}""#,
                    "_", folder.path, script, words,
                ])
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.trimmingCharacters(in: .newlines)
        }
        #expect(try complete("faro de") == "decode")
        #expect(try complete("faro decode --kind ") == "ad msd hci")
        #expect(try complete("faro scan --source ") == "bluez hci replay demo")
        #expect(try complete("faro scan --source replay wa") == "walk.jsonl")
        #expect(try complete("faro outbox ").hasPrefix("flush retry discard move --json"))
        #expect(try complete("faro help reg") == "register")
        #expect(try complete("faro register --nombre ") == "")
    }
}
