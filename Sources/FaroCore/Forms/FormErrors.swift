/// All the problems of one form submission, in field order.
public struct FormErrors: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [FieldProblem]

    public init(problems: [FieldProblem]) { self.problems = problems }

    public func problem(for field: FormField) -> FieldProblem? { problems.first { $0.field == field } }

    public var description: String { problems.map(\.description).joined(separator: "; ") }
}
