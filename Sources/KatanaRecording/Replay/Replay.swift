import Foundation
import Katana

/// An item type a replay can decode and dispatch: a state updater (or 2.x `Action`) that is `Decodable`.
public typealias ReplayableItem = Dispatchable & Decodable

extension Recording where S: Codable {
    /// Dispatches the recorded state updaters, in order, into `store`, and compares the store's
    /// state with the recorded one after each; stops at the first difference.
    ///
    /// Side effects are not run: what they dispatched is in the recording and is replayed in their
    /// place, so a replay is deterministic and reaches nothing outside the store. Build `store`
    /// with the state initializer and updaters to check (the same code, or the migrated code), and
    /// without interceptors or observer rules that dispatch: what they dispatched is recorded too,
    /// and would be applied twice. Items that were blocked or rejected are skipped, as are side
    /// effects and items of no kind.
    ///
    /// Each recorded type name is looked up in `renaming` (a 2.x `"AddTodoAction"` replayed as the
    /// `AddTodo` updater that replaced it), then in `items`: by its fully qualified name, by the
    /// name without its module, or by the type's own name. Stops before the item on line `upToLine` when given (the items
    /// before a gap). Throws ``RecordingError`` for an item it cannot replay.
    public func replay(
        into store: PartialStore<S>,
        items: [any ReplayableItem.Type],
        renaming: [String: any ReplayableItem.Type] = [:],
        upToLine: Int? = nil,
        timeout: Duration = .seconds(10)
    ) throws -> ReplayReport<S> {
        guard statesRecorded, let initialState else {
            throw RecordingError.statesNotRecorded(source: source, stateType: stateType)
        }
        let types = ItemTypes(items: items, renaming: renaming)
        try waitUntilReady(store, timeout: timeout)
        var report = ReplayReport<S>()
        if let difference = compare(store.state, with: initialState, at: nil) {
            report.difference = difference
            return report
        }
        for (index, entry) in entries.enumerated() {
            if let upToLine, entry.line > upToLine { break }
            if let gap = gaps.first(where: { $0.entriesBefore == index }) {
                throw RecordingError.gap(source: source, line: gap.line, dropped: gap.dropped)
            }
            guard entry.kind == .stateUpdater, entry.outcome == .handled else {
                report.skippedItems += 1
                continue
            }
            let item = try decode(entry, with: types)
            try dispatch(item, of: entry, into: store, timeout: timeout)
            report.replayedItems += 1
            if let recorded = entry.stateAfter, let difference = compare(store.state, with: recorded, at: entry) {
                report.difference = difference
                return report
            }
        }
        return report
    }

    private func decode(_ entry: RecordingEntry, with types: ItemTypes) throws -> any Dispatchable {
        guard let type = types.type(named: entry.typeName) else {
            throw RecordingError.unknownItemType(type: entry.typeName, position: entry.position, line: entry.line)
        }
        guard let encoding = entry.encoding else {
            throw RecordingError.itemNotReplayable(
                type: entry.typeName, position: entry.position, line: entry.line, rendering: entry.rendering ?? ""
            )
        }
        do {
            return try encoding.decode(as: type)
        } catch {
            throw RecordingError.itemDoesNotDecode(
                type: entry.typeName, replayedAs: String(reflecting: type), position: entry.position, line: entry.line,
                reason: DecodingProblem.describe(error)
            )
        }
    }

    private func dispatch(_ item: any Dispatchable, of entry: RecordingEntry, into store: PartialStore<S>, timeout: Duration) throws {
        do {
            _ = try store.anyDispatch(item).wait(timeout: timeout)
        } catch KatanaError.waitTimedOut {
            throw RecordingError.replayTimedOut(
                type: entry.typeName, position: entry.position, line: entry.line, seconds: timeout.seconds
            )
        } catch {
            throw RecordingError.replayedItemFailed(type: entry.typeName, position: entry.position, line: entry.line, error: "\(error)")
        }
    }

    /// The difference between the store's `state` and the `recorded` one after `entry` (nil: the
    /// initial state), or nil when they encode the same.
    private func compare(_ state: S, with recorded: JSONValue, at entry: RecordingEntry?) -> ReplayDifference<S>? {
        guard let replayed = try? JSONValue(encoding: state), replayed != recorded else { return nil }
        let recordedState = try? recorded.decode(as: S.self)
        let diff = recordedState.flatMap { StateDiff.diff(expected: $0, actual: state) }
            ?? StateDiff.diff(expected: recorded, actual: replayed)
            ?? "(the two states encode differently but draw the same)"
        return ReplayDifference(
            position: entry?.position ?? 0, line: entry?.line ?? 1, typeName: entry?.typeName,
            recordedState: recordedState, replayedState: state, diff: diff
        )
    }

    private func waitUntilReady(_ store: PartialStore<S>, timeout: Duration) throws {
        let deadline = ContinuousClock.now + timeout
        while !store.isReady {
            guard ContinuousClock.now < deadline else {
                throw RecordingError.replayTimedOut(type: "the store's start", position: 0, line: 1, seconds: timeout.seconds)
            }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }
}

/// The item types a replay was given, by the names a recording may use for them.
private struct ItemTypes {
    private var byName: [String: any ReplayableItem.Type] = [:]
    private var renamed: [String: any ReplayableItem.Type]

    init(items: [any ReplayableItem.Type], renaming: [String: any ReplayableItem.Type]) {
        renamed = renaming
        for type in items {
            for name in RecordingError.lookupNames(String(reflecting: type)) where byName[name] == nil {
                byName[name] = type
            }
        }
    }

    /// The type a recorded name replays as: a renaming first, then a listed type, each by the
    /// most specific form of the name that has one.
    func type(named name: String) -> (any ReplayableItem.Type)? {
        let names = RecordingError.lookupNames(name)
        for name in names {
            if let type = renamed[name] { return type }
        }
        for name in names {
            if let type = byName[name] { return type }
        }
        return nil
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
