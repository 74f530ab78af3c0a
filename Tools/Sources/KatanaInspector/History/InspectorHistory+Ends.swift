import Foundation

/// How the side effects of a history ended, for the API: with their rows, their detail, and, on
/// the live stream, those that ended after their rows were sent.
extension InspectorHistory {
    /// The cursor after the last end matched so far: a page that reads rows after taking it learns
    /// of any later end from the live stream (``ends(after:through:limit:)``).
    var endCursor: UInt64 {
        withEnds { book, _ in book.cursor }
    }

    /// The ends known of `items`, by their sequence.
    func ends(of items: [InspectedItem]) -> [UInt64: InspectedEnd] {
        withEnds { book, _ in
            var found: [UInt64: InspectedEnd] = [:]
            for item in items where item.kind == .sideEffect {
                found[item.sequence] = book.matched[item.sequence]
            }
            return found
        }
    }

    /// The end of the side effect with `sequence`, when it is known and its item kept.
    func end(ofSequence sequence: UInt64) -> InspectedEnd? {
        withEnds { book, _ in book.matched[sequence] }
    }

    /// Up to `limit` ends matched after `cursor`, oldest first, of the items at or before position
    /// `through` (the rows a page has been sent; a later row carries its end itself), and the
    /// cursor to read after next time.
    func ends(after cursor: UInt64, through position: UInt64, limit: Int) -> (ends: [(sequence: UInt64, end: InspectedEnd)], cursor: UInt64) {
        withEnds { book, positions in
            let (ends, next) = book.ends(after: cursor, limit: limit)
            return (ends.filter { (positions[$0.sequence] ?? .max) <= position }, next)
        }
    }
}
