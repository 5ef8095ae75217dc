import FaroCommandLine
import Testing

/// The help text, manual page and completion rendered from one `ProgramHelp`, checked on a small program.
@Suite("Help rendering")
struct HelpRenderingTests {
    static let command = CommandHelp(
        name: "greet", synopsis: ["tool greet [--times N] [--shout] NAME"], summary: "Say hello.",
        description: "Says hello to NAME.\n\n.Starts with a dot, and has a back\\slash.",
        options: [
            OptionSpec("--times N", "How many times."), OptionSpec("--shout", "Louder."),
            OptionSpec("--tone low|high", "The tone."), OptionSpec("--to FILE", "Write it there."),
        ],
        actions: ["again"],
        examples: [ExampleHelp("tool greet --times 2 Ana", "Says hello to Ana twice.")])
    static let program = ProgramHelp(
        name: "tool", version: "1.2.3", summary: "says hello", description: "A tool.",
        commands: [command], options: [OptionSpec("--version", "Show the version.")], exitStatus: "0 or 1.")

    @Test func theCommandTextHasUsageOptionsAndAnExample() {
        let text = Self.command.text(width: 60)
        #expect(text.hasPrefix("Usage: tool greet [--times N] [--shout] NAME\n"))
        #expect(text.contains("\nOptions:\n  --times N        How many times.\n"))
        #expect(text.contains("  -h, --help       Show this help and exit.\n"))
        #expect(text.hasSuffix("Example:\n  $ tool greet --times 2 Ana\n    Says hello to Ana twice."))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 60 })
    }

    @Test func theManualPageEscapesWhatRoffWouldReadAsRequests() {
        let page = ManPage.render(Self.program, date: "2026-11-29")
        #expect(page.contains(#".TH "TOOL" 1 "2026\-11\-29" "tool 1.2.3" "User Commands""#))
        #expect(page.contains(".SH NAME\ntool \\- says hello\n"))
        #expect(page.contains(".SY tool\ngreet [\\-\\-times N] [\\-\\-shout] NAME\n.YS"))
        #expect(page.contains("\n\\&.Starts with a dot, and has a back\\eslash.\n"))
        #expect(page.contains(".TP\n\\fB\\-\\-times\\fR \\fIN\\fR\nHow many times.\n"))
        #expect(page.contains(".SH EXIT STATUS\n.PP\n0 or 1.\n"))
    }

    @Test func theCompletionOffersValuesFilesAndWords() {
        let script = BashCompletion.render(Self.program)
        #expect(script.contains("complete -F _tool tool"))
        #expect(script.contains("--tone) COMPREPLY=($(compgen -W 'low high' -- \"$cur\")); return ;;"))
        #expect(script.contains("--to) COMPREPLY=($(compgen -f -- \"$cur\"))"))
        #expect(script.contains("--times) COMPREPLY=(); return ;;"))
        #expect(script.contains("options='again --times --shout --tone --to -h --help' ;;"))
    }

    @Test func optionNamesAndPlaceholders() {
        #expect(OptionHelp("-o, --output FILE.mht", "").names == ["-o", "--output"])
        #expect(OptionHelp("-o, --output FILE.mht", "").placeholder == "FILE.mht")
        #expect(OptionHelp("--json", "").placeholder == nil)
        #expect(OptionHelp("HEX", "").names.isEmpty)
    }
}
