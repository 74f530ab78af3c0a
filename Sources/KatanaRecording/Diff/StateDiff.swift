/// Draws values as indented trees and compares two of them line by line, for failure messages
/// that show how a state differs from what a test expected.
///
/// Values are read through `Mirror`: structs and classes as `TypeName(` fields `)`, enums as
/// `.case` or `.case(payload)`, optionals as their value or `nil`, arrays as `[…]`, dictionaries
/// as `[key: value]` ordered by key, sets as `Set([…])` in order, tuples as `(…)`, strings quoted
/// and numbers as written. A class instance met again inside itself is drawn as
/// `TypeName(↻ cycle)`.
///
/// In a diff, lines only in the expected value start with `−`, lines only in the actual value
/// with `+` ("− expected, + actual", as The Composable Architecture prints them); unchanged
/// lines start with two spaces, and long unchanged stretches are left out with a count:
///
/// ```
///   CounterState(
/// −   counter: 2,
/// +   counter: 1,
///     name: "x"
///   )
/// ```
///
/// A diff compares drawings, not values: two values that draw the same (say, two floating-point
/// numbers with the same description) have no diff. Parts of a value beyond the limits of
/// ``Options`` are replaced by a line with their digest, so a difference there still shows, as a
/// changed digest line; only what lies past ``Options/maxValues`` is not compared at all.
public enum StateDiff {
    /// The prefix of a line only the expected value has (U+2212 MINUS SIGN).
    public static let expectedMarker = "−"
    /// The prefix of a line only the actual value has.
    public static let actualMarker = "+"
    /// A reminder of what the two prefixes mean, for the heading of a message.
    public static let legend = "(− expected, + actual)"

    /// Limits that keep drawings and diffs of large values readable and bounded.
    public struct Options: Sendable, Equatable {
        /// Unchanged lines shown before and after each changed line.
        public var contextLines: Int
        /// Elements of one array, dictionary or set drawn before the rest are summed up in one
        /// line.
        public var maxElements: Int
        /// Nesting levels drawn before deeper contents are summed up in one line.
        public var maxDepth: Int
        /// Lines a drawing keeps before the rest is summed up in one line.
        public var maxLines: Int
        /// Values visited before drawing stops altogether (a guard against huge object graphs);
        /// what lies beyond is neither drawn nor compared.
        public var maxValues: Int
        /// Lines a diff prints before it stops with a count of the changes left.
        public var maxOutputLines: Int
        /// Changed lines up to which the diff looks for the smallest set of changes; past it the
        /// changed middle is shown as a whole (correct, but longer).
        public var maxEdits: Int

        /// Limits suited to failure messages; each can be set. Negative numbers count as zero,
        /// and `maxLines`, `maxOutputLines` and `maxValues` as at least one.
        public init(
            contextLines: Int = 2,
            maxElements: Int = 1_000,
            maxDepth: Int = 64,
            maxLines: Int = 20_000,
            maxValues: Int = 2_000_000,
            maxOutputLines: Int = 400,
            maxEdits: Int = 2_000
        ) {
            self.contextLines = contextLines
            self.maxElements = maxElements
            self.maxDepth = maxDepth
            self.maxLines = maxLines
            self.maxValues = maxValues
            self.maxOutputLines = maxOutputLines
            self.maxEdits = maxEdits
        }

        /// The same limits with out-of-range numbers brought into range.
        var normalized: Options {
            Options(
                contextLines: max(0, contextLines),
                maxElements: max(0, maxElements),
                maxDepth: max(0, maxDepth),
                maxLines: max(1, maxLines),
                maxValues: max(1, maxValues),
                maxOutputLines: max(1, maxOutputLines),
                maxEdits: max(0, maxEdits)
            )
        }
    }

    /// `value` drawn as an indented tree, two spaces per level.
    public static func render(_ value: Any, options: Options = Options()) -> String {
        StateRenderer.lines(of: value, options: options.normalized).map(\.indented).joined(separator: "\n")
    }

    /// The line-by-line difference between the drawings of `expected` and `actual`, or nil when
    /// they draw the same.
    public static func diff<Value>(expected: Value, actual: Value, options: Options = Options()) -> String? {
        let options = options.normalized
        let expectedLines = StateRenderer.lines(of: expected, options: options)
        let actualLines = StateRenderer.lines(of: actual, options: options)
        guard expectedLines != actualLines else { return nil }
        let entries = LineDiff.edits(from: expectedLines, to: actualLines, maxEdits: options.maxEdits).map { edit in
            switch edit {
            case .same(let old, _):
                DiffFormatter.Entry(kind: .unchanged, line: expectedLines[old])
            case .removed(let old):
                DiffFormatter.Entry(kind: .expectedOnly, line: expectedLines[old])
            case .inserted(let new):
                DiffFormatter.Entry(kind: .actualOnly, line: actualLines[new])
            }
        }
        return DiffFormatter(options: options).format(entries)
    }
}
