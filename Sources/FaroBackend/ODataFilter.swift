import FaroStore

/// Why a query option was refused: answered as 400 with this message, like the real server.
struct QueryError: Error, CustomStringConvertible {
    var description: String
}

/// The subset of OData `$filter` the tables protocol clients send: comparisons (`eq ne gt ge lt le`) between a
/// column and a literal (string `'…'` with `''` for a quote, number, `true`/`false`, `null`), combined with `and`,
/// `or`, `not` and parentheses. Parsed into SQL with every literal bound as a parameter.
struct ODataFilter {
    /// How deeply `not`s and parentheses may nest (deeper filters are refused with 400, never parsed recursively).
    static let maxDepth = 32

    /// The SQL condition, with `?` for each value in `parameters`.
    let sql: String
    let parameters: [SQLiteValue]

    private enum Token: Equatable {
        case word(String)
        case string(String)
        case number(String)
        case open, close
    }

    /// Parses `text`; `column` maps a name to its quoted SQL column, or nil when the table has no such column.
    init(_ text: String, column: @escaping (String) -> String?) throws(QueryError) {
        var parser = Parser(tokens: try ODataFilter.tokenize(text), column: column)
        let result = try parser.orExpression(depth: 0)
        guard parser.index == parser.tokens.count else {
            throw QueryError(description: "$filter: unexpected text near '\(parser.describeCurrent())'")
        }
        sql = result
        parameters = parser.parameters
    }

    private static func tokenize(_ text: String) throws(QueryError) -> [Token] {
        var tokens: [Token] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == " " || c == "\t" {
                i += 1
            } else if c == "(" {
                tokens.append(.open)
                i += 1
            } else if c == ")" {
                tokens.append(.close)
                i += 1
            } else if c == "'" {
                var value = ""
                i += 1
                var closed = false
                while i < chars.count {
                    if chars[i] == "'" {
                        if i + 1 < chars.count, chars[i + 1] == "'" {
                            value.append("'")
                            i += 2
                            continue
                        }
                        closed = true
                        i += 1
                        break
                    }
                    value.append(chars[i])
                    i += 1
                }
                guard closed else { throw QueryError(description: "$filter: unterminated string literal") }
                tokens.append(.string(value))
            } else if c.isNumber || c == "-" || c == "." {
                var value = String(c)
                i += 1
                while i < chars.count,
                    chars[i].isNumber || chars[i] == "." || chars[i] == "e" || chars[i] == "E"
                        || ((chars[i] == "-" || chars[i] == "+") && (chars[i - 1] == "e" || chars[i - 1] == "E"))
                {
                    value.append(chars[i])
                    i += 1
                }
                // OData type suffixes (100L, 1.5d, 2.0m, 3f) carry no meaning here.
                if i < chars.count, "LlDdMmFf".contains(chars[i]) { i += 1 }
                tokens.append(.number(value))
            } else if c.isLetter || c == "_" {
                var value = ""
                while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" {
                    value.append(chars[i])
                    i += 1
                }
                tokens.append(.word(value))
            } else {
                throw QueryError(description: "$filter: unexpected character '\(c)'")
            }
        }
        return tokens
    }

    private struct Parser {
        let tokens: [Token]
        let column: (String) -> String?
        var index = 0
        var parameters: [SQLiteValue] = []

        init(tokens: [Token], column: @escaping (String) -> String?) {
            self.tokens = tokens
            self.column = column
        }

        func describeCurrent() -> String {
            guard index < tokens.count else { return "end" }
            switch tokens[index] {
            case .word(let w): return w
            case .string(let s): return "'\(s)'"
            case .number(let n): return n
            case .open: return "("
            case .close: return ")"
            }
        }

        mutating func keyword(_ word: String) -> Bool {
            if index < tokens.count, case .word(let w) = tokens[index], w.lowercased() == word {
                index += 1
                return true
            }
            return false
        }

        mutating func orExpression(depth: Int) throws(QueryError) -> String {
            guard depth < ODataFilter.maxDepth else { throw QueryError(description: "$filter: nested too deeply") }
            var parts = [try andExpression(depth: depth)]
            while keyword("or") { parts.append(try andExpression(depth: depth)) }
            return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " OR ") + ")"
        }

        mutating func andExpression(depth: Int) throws(QueryError) -> String {
            var parts = [try unary(depth: depth)]
            while keyword("and") { parts.append(try unary(depth: depth)) }
            return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " AND ") + ")"
        }

        /// Every way down the tree (`not`, parentheses) counts against the same depth limit, so no filter can nest
        /// deeper than `maxDepth` whatever it is made of.
        mutating func unary(depth: Int) throws(QueryError) -> String {
            guard depth < ODataFilter.maxDepth else { throw QueryError(description: "$filter: nested too deeply") }
            if keyword("not") { return "(NOT " + (try unary(depth: depth + 1)) + ")" }
            if index < tokens.count, tokens[index] == .open {
                index += 1
                let inner = try orExpression(depth: depth + 1)
                guard index < tokens.count, tokens[index] == .close else {
                    throw QueryError(description: "$filter: missing ')'")
                }
                index += 1
                return "(" + inner + ")"
            }
            return try comparison()
        }

        enum Operand {
            case column(String)
            case value(SQLiteValue)
        }

        mutating func operand() throws(QueryError) -> Operand {
            guard index < tokens.count else { throw QueryError(description: "$filter: expected a value at the end") }
            let token = tokens[index]
            index += 1
            switch token {
            case .string(let s): return .value(.text(s))
            case .number(let n):
                if let i = Int64(n) { return .value(.integer(i)) }
                if let d = Double(n) { return .value(.real(d)) }
                throw QueryError(description: "$filter: '\(n)' is not a number")
            case .word(let w):
                switch w.lowercased() {
                case "true": return .value(.integer(1))
                case "false": return .value(.integer(0))
                case "null": return .value(.null)
                default:
                    if index < tokens.count, tokens[index] == .open {
                        throw QueryError(description: "$filter: the function '\(w)' is not supported")
                    }
                    guard let sql = column(w) else {
                        throw QueryError(description: "$filter: could not find a property named '\(w)'")
                    }
                    return .column(sql)
                }
            case .open, .close:
                throw QueryError(description: "$filter: expected a value near '\(describeCurrent())'")
            }
        }

        mutating func comparison() throws(QueryError) -> String {
            let left = try operand()
            guard index < tokens.count, case .word(let op) = tokens[index] else {
                throw QueryError(description: "$filter: expected an operator (eq, ne, gt, ge, lt, le)")
            }
            index += 1
            let right = try operand()
            let lower = op.lowercased()
            let symbols = ["eq": "=", "ne": "<>", "gt": ">", "ge": ">=", "lt": "<", "le": "<="]
            guard let symbol = symbols[lower] else {
                throw QueryError(description: "$filter: unknown operator '\(op)'")
            }
            let isNull: (Operand) -> Bool = { if case .value(.null) = $0 { return true } else { return false } }
            if isNull(right) || isNull(left) {
                let other = isNull(right) ? left : right
                guard lower == "eq" || lower == "ne" else {
                    throw QueryError(description: "$filter: null can only be compared with eq or ne")
                }
                return "(" + sql(other) + (lower == "eq" ? " IS NULL)" : " IS NOT NULL)")
            }
            return "(" + sql(left) + " " + symbol + " " + sql(right) + ")"
        }

        mutating func sql(_ operand: Operand) -> String {
            switch operand {
            case .column(let c): return c
            case .value(let v):
                parameters.append(v)
                return "?"
            }
        }
    }
}
