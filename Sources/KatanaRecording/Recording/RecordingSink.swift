import Katana

/// Where a ``StoreRecorder`` puts what it records: ``FlightRecorder`` (the last items, in memory) and
/// ``RecordingFile`` (a file written as it goes) are the two the package has.
///
/// A sink records one store: the recorder calls ``begin(stateType:initialState:)`` when its store
/// starts, then ``append(_:)`` for each item, in order, one call at a time. Appending must be
/// quick and must not block (it runs on the store's queue and its workers): keep the values, and
/// encode or write them elsewhere.
public protocol RecordingSink<StateType>: AnyObject, Sendable {
    /// The state type of the store it records.
    associatedtype StateType: State

    /// The recorder's store started: the name of its state type and its state before any item.
    func begin(stateType: String, initialState: StateType)

    /// Records one item.
    func append(_ item: RecordedItem<StateType>)
}
