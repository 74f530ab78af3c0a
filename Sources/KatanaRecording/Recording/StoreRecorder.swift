import Foundation
import Katana

/// The interceptor that records every item its store handles, with where it came from, how it
/// went and the state after it, and how each side effect ended, into one or more sinks.
///
/// Install it first, so that it sees every item before any other interceptor can replace or block
/// it: items from outside, those side effects and observer rules dispatch, and 2.x actions.
///
/// ```swift
/// let flightRecorder = FlightRecorder<AppState>(capacity: 1_000)
/// let store = Store<AppState, AppDependencies>(interceptors: Interceptors {
///     StoreRecorder(to: flightRecorder)
///     ObserverInterceptor.rules { ... }
/// })
/// ```
///
/// In a store with a dispatch context (``Katana/DispatchContext``), a `correlation` function names
/// the request each item was dispatched for, from the context the item carries (a trace id, a
/// request id): the recording keeps it with the item, and the inspector shows every item of one
/// request.
///
/// It keeps items and states as values and encodes nothing on the store's queue: a sink encodes
/// later, elsewhere (docs/Recording.md). Its path for each item is inlinable, so that it runs
/// specialised for the app's state type (docs/PERFORMANCE.md, "Recording").
public struct StoreRecorder<S: State>: Interceptor {
    /// Names the request (or other work) an item was dispatched for, from the dispatch context it
    /// carries; nil when the context names none.
    public typealias Correlation = @Sendable (_ dispatchContext: any Sendable) -> String?

    /// The longest correlation kept, in Unicode scalars: a longer one is cut to its first 128, so
    /// that a function that returns too much cannot bloat the recording.
    public static var maximumCorrelationLength: Int { 128 }

    @usableFromInline
    let journal: RecorderJournal<S>
    /// Reads the store's state as an `S`, once the store has started; nil before.
    @usableFromInline
    var readState: (@Sendable () -> S?)?
    /// Names each item's request from its dispatch context; nil records none (and costs one check).
    @usableFromInline
    let correlate: Correlation?

    /// A recorder that puts what it records into `sinks`, in order, and, given `correlation`,
    /// keeps with each item that carries a dispatch context what the function names it.
    public init(to sinks: any RecordingSink<S>..., correlation: Correlation? = nil) {
        journal = RecorderJournal(sinks: sinks)
        correlate = correlation
    }

    /// A recorder that puts what it records into `sinks`, in order, and, given `correlation`,
    /// keeps with each item that carries a dispatch context what the function names it.
    public init(to sinks: [any RecordingSink<S>], correlation: Correlation? = nil) {
        journal = RecorderJournal(sinks: sinks)
        correlate = correlation
    }

    /// Reads the store's state before any item and tells the sinks.
    public mutating func start(in context: any AnySideEffectContext) {
        let state = context.getAnyState()
        guard let initial = state as? S else {
            RecorderJournal<S>.report(
                "KatanaRecording: a StoreRecorder<\(String(reflecting: S.self))> was installed in a store whose state is "
                    + "\(String(reflecting: type(of: state))); it records nothing. Make it a StoreRecorder<\(String(reflecting: type(of: state)))>."
            )
            return
        }
        guard journal.begin(stateType: String(reflecting: S.self), initialState: initial) else { return }
        let journal = journal
        context.observeSideEffectEnds { end in journal.append(RecordedEnd(end)) }
        if let typed = context.stateReader(as: S.self) {
            readState = { typed() }
        } else {
            readState = { context.getAnyState() as? S }
        }
    }

    /// Passes the item on, then records it with how it went and the state after it.
    @inlinable
    public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        guard let readState else {
            try next(item)
            return
        }
        let intercepted = InterceptedItem.current
        // Read before `next`, as the item was dispatched: a later interceptor may replace the context
        // (a tracer puts its own span there).
        let correlation = correlate.flatMap(Self.correlation)
        do {
            try next(item)
        } catch {
            let handled = InterceptedItem.currentHasReachedStore == true
            record(item, intercepted, correlation, outcome: handled ? .handled : .rejected("\(error)"), state: readState())
            throw error
        }
        let blocked = InterceptedItem.currentHasReachedStore == false
        record(item, intercepted, correlation, outcome: blocked ? .blocked : .handled, state: readState())
    }

    @inlinable
    func record(_ item: any Dispatchable, _ intercepted: InterceptedItem?, _ correlation: String?, outcome: RecordedOutcome, state: S?) {
        guard let state else { return }
        journal.append(
            item, sequence: intercepted?.sequence ?? 0, origin: intercepted?.origin ?? .outside, outcome: outcome, stateAfter: state,
            correlation: correlation
        )
    }

    /// What `correlate` names the intercepted item's dispatch context, cut to
    /// ``maximumCorrelationLength``; nil when the item carries no context or the name is empty.
    @usableFromInline
    static func correlation(_ correlate: Correlation) -> String? {
        guard let context = InterceptedItem.currentDispatchContext, let name = correlate(context), !name.isEmpty else { return nil }
        let limit = maximumCorrelationLength
        // At least one UTF-8 byte per scalar: a name this short is within the limit.
        guard name.utf8.count > limit, name.unicodeScalars.count > limit else { return name }
        // Cut by scalars, not characters: one character may join any number of scalars.
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: name.unicodeScalars.prefix(limit))
        return String(cut)
    }
}

/// What every copy of a recorder shares: the sinks, the count of items, and what kind each item
/// type is, behind one lock, so that the sinks get the items one at a time, in one order. The
/// package's own sinks are kept by their types, so that appending to them is a direct call.
// @unchecked: `counts` and `started` are only touched with `lock` held; the sinks are constants.
@usableFromInline final class RecorderJournal<S: State>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline let flightRecorders: [FlightRecorder<S>]
    @usableFromInline let files: [RecordingFile<S>]
    @usableFromInline let otherSinks: [any RecordingSink<S>]
    /// Everything that changes, in one value, so that an item takes one access to it.
    @usableFromInline @exclusivity(unchecked) var counts = Counts()
    private var started = false

    /// The count of items and the kinds of the item types seen.
    @usableFromInline
    struct Counts {
        @usableFromInline var count: UInt64 = 0
        @usableFromInline var lastType: ObjectIdentifier?
        @usableFromInline var lastKind = RecordedItemKind.other
        @usableFromInline var kinds: [ObjectIdentifier: RecordedItemKind] = [:]

        @usableFromInline
        init() {}

        /// Counts `item`; returns its position and kind (the last type's without a look-up).
        @inlinable
        mutating func next(_ item: any Dispatchable) -> (position: UInt64, kind: RecordedItemKind) {
            count += 1
            let type = ObjectIdentifier(Swift.type(of: item))
            if type != lastType {
                let kind = kinds[type] ?? RecorderJournal.classify(item)
                kinds[type] = kind
                lastType = type
                lastKind = kind
            }
            return (count, lastKind)
        }
    }

    init(sinks: [any RecordingSink<S>]) {
        var flightRecorders: [FlightRecorder<S>] = []
        var files: [RecordingFile<S>] = []
        var otherSinks: [any RecordingSink<S>] = []
        for sink in sinks {
            if let flightRecorder = sink as? FlightRecorder<S> {
                flightRecorders.append(flightRecorder)
            } else if let file = sink as? RecordingFile<S> {
                files.append(file)
            } else {
                otherSinks.append(sink)
            }
        }
        self.flightRecorders = flightRecorders
        self.files = files
        self.otherSinks = otherSinks
    }

    /// Tells the sinks the store started; false (and a report) when another store started first.
    func begin(stateType: String, initialState: S) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !started else {
            Self.report(
                "KatanaRecording: a StoreRecorder was started by a second store; each store needs a StoreRecorder and sinks "
                    + "of its own. The second store is not recorded."
            )
            return false
        }
        started = true
        for sink in flightRecorders {
            sink.begin(stateType: stateType, initialState: initialState)
        }
        for sink in files {
            sink.begin(stateType: stateType, initialState: initialState)
        }
        for sink in otherSinks {
            sink.begin(stateType: stateType, initialState: initialState)
        }
        return true
    }

    @inlinable
    func append(
        _ item: any Dispatchable, sequence: UInt64, origin: DispatchOrigin, outcome: RecordedOutcome, stateAfter: S, correlation: String?
    ) {
        let time = Date()
        lock.lock()
        defer { lock.unlock() }
        let (position, kind) = counts.next(item)
        let recorded = RecordedItem(
            position: position, sequence: sequence, time: time, origin: origin,
            item: item, kind: kind, outcome: outcome, stateAfter: stateAfter, correlation: correlation
        )
        if flightRecorders.count == 1, files.isEmpty, otherSinks.isEmpty {
            // One flight recorder, the common case: the item moves into it, uncopied.
            flightRecorders[0].keep(consume recorded)
            return
        }
        for sink in flightRecorders {
            sink.append(recorded)
        }
        for sink in files {
            sink.append(recorded)
        }
        for sink in otherSinks {
            sink.append(recorded)
        }
    }

    /// Hands a side effect's end to the sinks.
    func append(_ end: RecordedEnd) {
        lock.lock()
        defer { lock.unlock() }
        for sink in flightRecorders {
            sink.append(end)
        }
        for sink in files {
            sink.append(end)
        }
        for sink in otherSinks {
            sink.append(end)
        }
    }

    @usableFromInline
    static func classify(_ item: any Dispatchable) -> RecordedItemKind {
        if item is any AnyStateUpdater, !(item is any AnySideEffect) {
            .stateUpdater
        } else if item is any AnySideEffect {
            .sideEffect
        } else {
            .other
        }
    }

    static func report(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
