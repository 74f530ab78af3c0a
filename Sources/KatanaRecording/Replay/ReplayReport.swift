import Katana

/// What a replay did: how many items it dispatched and skipped, and where the state first
/// differed from the recorded one, if it did.
public struct ReplayReport<S: State>: Sendable {
    /// State updaters dispatched.
    public var replayedItems = 0
    /// Items not dispatched: side effects, items blocked or rejected when recorded, items of no kind.
    public var skippedItems = 0
    /// The first difference; nil when every state matched.
    public var difference: ReplayDifference<S>?

    /// Whether every state matched the recorded one.
    public var matches: Bool {
        difference == nil
    }
}

/// The first item after which a replayed store's state differs from the recorded state.
public struct ReplayDifference<S: State>: Sendable, CustomStringConvertible {
    /// The item's place in the recording (0: the state before any item).
    public let position: UInt64
    /// Its line in the recording file.
    public let line: Int
    /// Its type, fully qualified; nil for the state before any item.
    public let typeName: String?
    /// The recorded state, decoded (nil when it no longer decodes as the state type).
    public let recordedState: S?
    /// The replayed store's state.
    public let replayedState: S
    /// The two states drawn and compared line by line (− recorded, + replayed).
    public let diff: String

    /// Where the states differ, and how.
    public var description: String {
        let what = typeName.map { "after item \(position) (line \(line)), a \($0)" } ?? "before the first item (the store's initial state)"
        return "The replayed state differs from the recorded one \(what) (− recorded, + replayed):\n\(diff)"
    }
}
