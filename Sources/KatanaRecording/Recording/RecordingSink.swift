import Katana

/// Where a ``StoreRecorder`` puts what it records: ``FlightRecorder`` (the last items, in memory) and
/// ``RecordingFile`` (a file written as it goes) are the two the package has.
///
/// A sink records one store: the recorder calls ``begin(stateType:initialState:)`` when its store
/// starts, then `append` for each item, in order, and for each side effect's end when it comes,
/// one call at a time. Appending must be quick and must not block (it runs on the store's queue
/// and its workers): keep the values, and encode or write them elsewhere.
public protocol RecordingSink<StateType>: AnyObject, Sendable {
    /// The state type of the store it records.
    associatedtype StateType: State

    /// The recorder's store started: the name of its state type and its state before any item.
    func begin(stateType: String, initialState: StateType)

    /// Records one item.
    func append(_ item: RecordedItem<StateType>)

    /// Records how one of the recorded side effects ended: usually after its item, but just before
    /// it when its body ended before the interceptors that saw it had returned. Does nothing by
    /// default: a sink written before ends were recorded keeps its items only.
    func append(_ end: RecordedEnd)
}

extension RecordingSink {
    /// Keeps nothing: the sink records items only.
    public func append(_ end: RecordedEnd) {}
}
