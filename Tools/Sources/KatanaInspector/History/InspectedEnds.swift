import Foundation
import KatanaRecording

/// How a side effect ended, as the inspector keeps it: what the timeline and the detail show.
struct InspectedEnd: Sendable, Equatable {
    let outcome: RecordedEnd.Outcome
    /// How long its body ran, in whole microseconds (the recording's own resolution).
    let durationMicroseconds: Int64
    /// Whether its body began (false: it was cancelled before it began).
    let began: Bool
    /// When the recorder learnt of the end, in seconds since 1970.
    let time: Double
    /// Its place among the ends matched so far, from 1: what the live stream's cursor counts.
    let number: UInt64

    init(_ end: RecordedEnd, number: UInt64) {
        outcome = end.outcome
        let (seconds, attoseconds) = end.duration.components
        durationMicroseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        began = end.began
        time = end.time.timeIntervalSince1970
        self.number = number
    }

    /// A failure's error, or what cancelled it (`latestWins`), as the API writes them; nil for a
    /// success.
    var detail: String? {
        switch outcome {
        case .succeeded: nil
        case .failed(let error): error
        case .cancelled(let canceller): canceller.rawValue
        }
    }
}

/// The side-effect ends of a history, matched to its items by sequence. An end may be read before
/// its item (a synchronous side effect's body ends before its item is recorded): it waits, a
/// bounded while, for the item. The ends of items the history lets go are let go with them.
struct EndBook: Sendable {
    /// Ends that wait for their item, at most: beyond it the oldest are dropped (an end whose
    /// item was never recorded, a gap's, would otherwise be kept for ever).
    static let waitingLimit = 4_096

    /// The ends of the items kept, by their sequence.
    private(set) var matched: [UInt64: InspectedEnd] = [:]
    /// The sequences of the matched ends, in the order they were matched (numbers only grow).
    private var log: [(number: UInt64, sequence: UInt64)] = []
    /// Ends read before their item, by sequence, and the order they came in (it may name ends
    /// matched since: those are passed over when the oldest are dropped).
    private var waiting: [UInt64: RecordedEnd] = [:]
    private var waitingOrder: [UInt64] = []
    /// The number of the last end matched: the cursor a page reads ends after.
    private(set) var cursor: UInt64 = 0

    /// How many ends wait for their item.
    var waitingCount: Int {
        waiting.count
    }

    /// Takes an end read from the recording; `itemKept` says whether its item is in the history.
    mutating func take(_ end: RecordedEnd, itemKept: Bool) {
        if itemKept {
            match(end)
            return
        }
        if waiting.updateValue(end, forKey: end.sequence) == nil {
            waitingOrder.append(end.sequence)
        }
        if waitingOrder.count > Self.waitingLimit {
            let dropped = waitingOrder.count / 4
            for sequence in waitingOrder[..<dropped] {
                waiting[sequence] = nil
            }
            waitingOrder.removeFirst(dropped)
        }
    }

    /// The item with `sequence` was read: its end, when it came first, is matched now.
    mutating func itemArrived(sequence: UInt64) {
        if let end = waiting.removeValue(forKey: sequence) {
            match(end)
        }
    }

    /// Lets go of the ends of `items`, which the history let go of.
    mutating func letGo<Items: Sequence<InspectedItem>>(_ items: Items) {
        var any = false
        for item in items where matched.removeValue(forKey: item.sequence) != nil {
            any = true
        }
        if any {
            log.removeAll { matched[$0.sequence] == nil }
        }
    }

    /// Up to `limit` ends matched after `cursor` whose items are kept, oldest first, and the
    /// cursor to read after next time.
    func ends(after cursor: UInt64, limit: Int) -> (ends: [(sequence: UInt64, end: InspectedEnd)], cursor: UInt64) {
        var low = 0
        var high = log.count
        while low < high {
            let middle = (low + high) / 2
            if log[middle].number <= cursor {
                low = middle + 1
            } else {
                high = middle
            }
        }
        let slice = log[low...].prefix(max(0, limit))
        var found: [(sequence: UInt64, end: InspectedEnd)] = []
        for entry in slice {
            if let end = matched[entry.sequence] {
                found.append((entry.sequence, end))
            }
        }
        // Read to the end: the cursor is the last end matched (also when a page brings a cursor
        // from another run of the server, larger than any this one has).
        let readAll = low + slice.count == log.count
        return (found, readAll ? self.cursor : slice.last?.number ?? cursor)
    }

    private mutating func match(_ end: RecordedEnd) {
        guard matched[end.sequence] == nil else { return }
        cursor += 1
        matched[end.sequence] = InspectedEnd(end, number: cursor)
        log.append((cursor, end.sequence))
    }
}
