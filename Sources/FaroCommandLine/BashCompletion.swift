/// A bash completion script for a program, made from its `ProgramHelp`: command words first, then the options of
/// the command being typed; option values from the help's own forms (`--kind ad|msd|hci` offers `ad msd hci`, a
/// `FILE` or `DIR` placeholder offers files or folders).
public enum BashCompletion {
    public static func render(_ program: ProgramHelp) -> String {
        let function = "_" + program.name.map { $0.isLetter || $0.isNumber ? $0 : "_" }.map(String.init).joined()
        let named = program.commands.filter { !$0.name.isEmpty }
        let main = program.commands.first { $0.name.isEmpty }
        let words = named.map(\.name)
        var out = [
            "# bash completion for \(program.name) \(program.version), made from its --help text; do not edit.",
            "\(function)() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command= i",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        case ${COMP_WORDS[i]} in",
        ]
        if !words.isEmpty {
            out.append("            \(words.joined(separator: "|"))) command=${COMP_WORDS[i]}; break ;;")
        }
        out += ["        esac", "    done", "    local options", "    case $command in"]
        for command in named {
            // `help` is followed by the name of a command.
            let others = command.name == "help" ? named.map(\.name).filter { $0 != "help" } : []
            out += branch(command.name, options: command.listed, actions: command.actions + others)
        }
        let topLevel = (main?.listed ?? []) + program.options.map(\.help)
        out += branch("*", options: topLevel, actions: named.map(\.name))
        out += [
            "    esac",
            "    COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
            "}",
            "complete -F \(function) \(program.name)",
            "",
        ]
        return out.joined(separator: "\n")
    }

    /// One `case` branch: completes the value of the option just typed, else sets `options` to what may come.
    static func branch(_ pattern: String, options: [OptionHelp], actions: [String]) -> [String] {
        var out = ["        \(pattern))", "            case $prev in"]
        var afterValue: [String: String] = [:]
        for option in options where !option.names.isEmpty {
            guard let placeholder = option.placeholder else { continue }
            let names = option.names.joined(separator: "|")
            if let values = enumerated(placeholder) {
                let list = values.map(\.word).joined(separator: " ")
                out.append(
                    "                \(names)) COMPREPLY=($(compgen -W \(shellQuoted(list)) -- \"$cur\")); return ;;")
                for value in values where value.then != nil { afterValue[value.word] = value.then }
            } else {
                out.append("                \(names)) \(valueCompletion(placeholder)); return ;;")
            }
        }
        for (word, then) in afterValue.sorted(by: { $0.key < $1.key }) {
            out.append("                \(word)) \(valueCompletion(then)); return ;;")
        }
        out.append("            esac")
        let words = actions + options.flatMap(\.names) + CommandHelp.helpOption.names
        out.append("            options=\(shellQuoted(words.uniqued().joined(separator: " "))) ;;")
        return out
    }

    /// `a|b|c` (lower-case words, each perhaps followed by its own placeholder: `replay FILE`) as values.
    static func enumerated(_ placeholder: String) -> [(word: String, then: String?)]? {
        guard placeholder.contains("|") else { return nil }
        let values = placeholder.split(separator: "|").map { part -> (word: String, then: String?) in
            let words = part.split(separator: " ")
            return (String(words.first ?? ""), words.count > 1 ? words.dropFirst().joined(separator: " ") : nil)
        }
        guard values.allSatisfy({ v in !v.word.isEmpty && v.word.allSatisfy({ $0.isLowercase || $0.isNumber }) })
        else { return nil }
        return values
    }

    static func valueCompletion(_ placeholder: String) -> String {
        if placeholder.contains("FILE") {
            return "COMPREPLY=($(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null"
        }
        if placeholder.contains("DIR") {
            return "COMPREPLY=($(compgen -d -- \"$cur\")); compopt -o filenames 2>/dev/null"
        }
        return "COMPREPLY=()"
    }

    static func shellQuoted(_ text: String) -> String { "'" + text.replacing("'", with: "'\\''") + "'" }
}

extension Array where Element == String {
    /// The strings in order, each once.
    func uniqued() -> [String] {
        var seen = Set<String>()
        return filter { seen.insert($0).inserted }
    }
}
