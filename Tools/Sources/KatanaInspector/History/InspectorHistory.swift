import Foundation
import KatanaRecording

/// The items the inspector shows, read from a recording's lines (a file's, or a live store's as
/// they are recorded), with what each changed in the state.
///
/// States are not kept per item: a whole state is kept once the items since the last one take as
/// many bytes as it does (and at least ``snapshotSpacing`` items have gone by), so that what the
/// history holds stays proportional to what the items changed, however large the state; the state
/// after any item is rebuilt from the nearest one before it and the changes between. A live history
/// keeps at most `limit` items and about `byteLimit` bytes, letting the oldest go.
final class InspectorHistory: Sendable {
    /// The fewest items between kept whole states.
    static let snapshotSpacing = 64

    private let storage: Locked<Storage>

    /// A history of the recording that starts with `header`, named `source`, keeping at most
    /// `limit` items and about `byteLimit` bytes (the oldest are let go).
    init(reader: RecordingReader, live: Bool, limit: Int = .max, byteLimit: Int = .max) {
        storage = Locked(Storage(reader: reader, live: live, limit: max(Self.snapshotSpacing * 2, limit), byteLimit: max(1, byteLimit)))
    }

    /// About how many bytes the history holds, as it counts them against its bound.
    var byteCount: Int {
        storage.withLock { $0.byteCount }
    }

    /// Reads one line after the header, numbered `number` in its file.
    func read(_ line: Data, number: Int) throws {
        try storage.withLock { try $0.read(line, number: number) }
    }

    /// Notes that the file's last line was cut short and is left out.
    func noteTruncated(line: Int) {
        storage.withLock { $0.warnings.append("line \(line) was cut short (the recording ends mid-line) and is left out") }
    }

    /// What the page's header and the live stream need to know.
    var summary: HistorySummary {
        storage.withLock { $0.summary }
    }

    /// Up to `limit` items from `position` on, in order, with the summary they were read with.
    func items(from position: UInt64, limit: Int) -> (summary: HistorySummary, items: [InspectedItem]) {
        storage.withLock { storage in
            let start = storage.index(atOrAfter: position)
            let end = min(storage.items.count, start + max(0, limit))
            return (storage.summary, Array(storage.items[start ..< end]))
        }
    }

    /// The item at `position` with the state after it and the state before it; nil when there is
    /// no such item.
    func detail(at position: UInt64) -> ItemDetail? {
        storage.withLock { storage in
            guard let index = storage.index(of: position) else { return nil }
            let item = storage.items[index]
            let after = storage.state(after: index)
            let before = index == 0 ? storage.baseState : storage.state(after: index - 1)
            let changes: [StateChange]? = if let before, let after {
                (item.changes ?? StateChanges(from: before, to: after)).described(from: before)
            } else {
                nil
            }
            let originPosition: UInt64? = if case .sideEffect(_, let sequence) = item.origin {
                storage.positionsBySequence[sequence]
            } else {
                nil
            }
            return ItemDetail(item: item, stateAfter: after, changes: changes, originPosition: originPosition)
        }
    }

    /// Runs `body` with the side effects' ends and the positions of the items kept, by sequence,
    /// as they are now (InspectorHistory+Ends.swift reads them).
    func withEnds<T>(_ body: (EndBook, [UInt64: UInt64]) -> T) -> T {
        storage.withLock { body($0.endBook, $0.positionsBySequence) }
    }
}

/// What the page's header shows about a history.
struct HistorySummary: Sendable {
    let source: String
    let live: Bool
    let header: RecordingHeader
    let count: Int
    let firstPosition: UInt64
    let lastPosition: UInt64
    /// Where items were dropped: the last position before each gap, and how many.
    let gaps: [(after: UInt64, dropped: UInt64)]
    let warnings: [String]
}

/// One item with the states around it, for the detail view.
struct ItemDetail: Sendable {
    let item: InspectedItem
    let stateAfter: JSONValue?
    /// What it changed, field by field; nil when a state around it is not known.
    let changes: [StateChange]?
    /// The position of the side effect that dispatched it, when it came from one still kept.
    let originPosition: UInt64?
}

extension InspectorHistory {
    /// Everything behind the history's lock.
    struct Storage: Sendable {
        var reader: RecordingReader
        let live: Bool
        let limit: Int
        let byteLimit: Int
        var items: [InspectedItem] = []
        /// The state before the first item kept.
        var baseState: JSONValue?
        /// Whole states kept: the index of the item they follow, the state, and its bytes.
        var snapshots: [(index: Int, state: JSONValue, bytes: Int)] = []
        /// The bytes counted: the items', the whole states kept and the state before the first item.
        var byteCount = 0
        /// The state before the first item's bytes.
        var baseBytes = 0
        /// The last whole state kept's bytes, and the items read since it and their bytes: what
        /// decides when to keep the next one.
        var snapshotBytes = 0
        var itemsSinceSnapshot = 0
        var bytesSinceSnapshot = 0
        var positionsBySequence: [UInt64: UInt64] = [:]
        var gaps: [(after: UInt64, dropped: UInt64)] = []
        var warnings: [String] = []
        var names = NameTable()
        /// The side effects' ends, matched to the items by sequence.
        var endBook = EndBook()

        init(reader: RecordingReader, live: Bool, limit: Int, byteLimit: Int) {
            self.reader = reader
            self.live = live
            self.limit = limit
            self.byteLimit = byteLimit
            baseState = reader.header.initialState
            baseBytes = baseState?.estimatedByteCount ?? 0
            byteCount = baseBytes
            snapshotBytes = baseBytes
        }

        var summary: HistorySummary {
            HistorySummary(
                source: reader.source, live: live, header: reader.header, count: items.count,
                firstPosition: items.first?.position ?? 0, lastPosition: items.last?.position ?? 0,
                gaps: gaps, warnings: warnings
            )
        }

        mutating func read(_ line: Data, number: Int) throws {
            switch try reader.read(line, number: number) {
            case .gap(let gap):
                gaps.append((after: items.last?.position ?? 0, dropped: gap.dropped))
            case let .entry(entry, changes):
                let item = InspectedItem(entry, changes: changes, names: &names)
                byteCount += item.byteCount
                itemsSinceSnapshot += 1
                bytesSinceSnapshot += item.byteCount
                if let state = entry.stateAfter, changes == nil
                    || (itemsSinceSnapshot >= InspectorHistory.snapshotSpacing && bytesSinceSnapshot >= snapshotBytes) {
                    let bytes = state.estimatedByteCount
                    snapshots.append((items.count, state, bytes))
                    byteCount += bytes
                    (snapshotBytes, itemsSinceSnapshot, bytesSinceSnapshot) = (bytes, 0, 0)
                }
                items.append(item)
                positionsBySequence[item.sequence] = item.position
                endBook.itemArrived(sequence: item.sequence)
                if items.count > limit || byteCount > byteLimit {
                    letOldestGo()
                }
            case .end(let end):
                endBook.take(end, itemKept: positionsBySequence[end.sequence] != nil)
            }
        }

        /// The index of the item at `position`.
        func index(of position: UInt64) -> Int? {
            let index = index(atOrAfter: position)
            return index < items.count && items[index].position == position ? index : nil
        }

        /// The index of the first item at or after `position` (positions only grow).
        func index(atOrAfter position: UInt64) -> Int {
            var low = 0
            var high = items.count
            while low < high {
                let middle = (low + high) / 2
                if items[middle].position < position {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            return low
        }

        /// The state after the item at `index`, rebuilt from the nearest whole state before it.
        func state(after index: Int) -> JSONValue? {
            guard items[index].stateKnown else { return nil }
            var low = 0
            var high = snapshots.count
            while low < high {
                let middle = (low + high) / 2
                if snapshots[middle].index <= index {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            var from: Int
            var state: JSONValue
            if low > 0 {
                (from, state) = (snapshots[low - 1].index, snapshots[low - 1].state)
            } else if let baseState {
                (from, state) = (-1, baseState)
            } else {
                return nil
            }
            // Changed in place: the parts the changes do not touch are not copied for each item.
            while from < index {
                from += 1
                guard let changes = items[from].changes, (try? changes.apply(to: &state)) != nil else { return nil }
            }
            return state
        }

        /// Lets the oldest items go, keeping the state before the new first one: a quarter of them
        /// beyond the item limit, and beyond the byte limit as many as bring the bytes counted down
        /// to three quarters of it (all but the newest, when a state alone takes more).
        private mutating func letOldestGo() {
            var dropped = items.count > limit ? items.count / 4 : 0
            if byteCount > byteLimit {
                dropped = max(dropped, countToLetGo(toReach: byteLimit / 4 * 3))
            }
            dropped = min(dropped, items.count - 1)
            guard dropped > 0 else { return }
            // A whole state kept after the last item let go becomes the base as it is.
            let kept = snapshots.first { $0.index == dropped - 1 }
            baseState = kept?.state ?? state(after: dropped - 1)
            byteCount -= baseBytes
            baseBytes = kept?.bytes ?? baseState?.estimatedByteCount ?? 0
            byteCount += baseBytes
            for item in items[..<dropped] {
                positionsBySequence[item.sequence] = nil
                byteCount -= item.byteCount
            }
            endBook.letGo(items[..<dropped])
            items.removeFirst(dropped)
            for snapshot in snapshots where snapshot.index < dropped {
                byteCount -= snapshot.bytes
            }
            snapshots = snapshots.filter { $0.index >= dropped }.map { ($0.index - dropped, $0.state, $0.bytes) }
            if snapshots.isEmpty {
                // The base is now the whole state the next one is spaced from.
                (snapshotBytes, itemsSinceSnapshot) = (baseBytes, items.count)
                bytesSinceSnapshot = items.reduce(0) { $0 + $1.byteCount }
            }
            let firstKept = items.first?.position ?? 0
            gaps.removeAll { $0.after < firstKept }
        }

        /// How many of the oldest items to let go for the bytes counted to come down to `target`,
        /// reckoning the state then kept before the first item as large as the last whole state kept.
        private func countToLetGo(toReach target: Int) -> Int {
            var remaining = byteCount - baseBytes + snapshotBytes
            var count = 0
            var snapshot = 0
            while count < items.count - 1, remaining > target {
                remaining -= items[count].byteCount
                while snapshot < snapshots.count, snapshots[snapshot].index <= count {
                    remaining -= snapshots[snapshot].bytes
                    snapshot += 1
                }
                count += 1
            }
            return count
        }
    }
}
