import Dispatch
import Katana

/// A store for tests: it runs the app's own state, dependencies, interceptors and observer rules,
/// records every item it handles with the state before and after, and checks each step the test
/// asserts — exhaustively by default.
///
/// ```swift
/// let store = TestStore<CounterState, AppDependencies>(initialState: CounterState())
/// await store.send(Increment()) { $0.counter = 1 }
/// await store.send(LoadAmount())                       // a side effect: it dispatches Increment(41)
/// await store.receive(Increment.self) { $0.counter = 42 }
/// await store.finish()
/// ```
///
/// - ``send(_:assert:fileID:filePath:line:column:)`` dispatches an item, waits (bounded by
///   ``timeout``) until the store has handled it and settled — an updater applied and its listeners
///   called; a side effect's body returned or suspended (on the test clock, or on any other
///   `await`), and what it dispatched meanwhile handled — and compares the state with the state
///   before it changed by the closure. A difference fails the test with a line-by-line diff.
/// - ``receive(_:timeout:assert:fileID:filePath:line:column:)`` checks the next item the store
///   handled that the test did not send (dispatched by a side effect, an observer rule, a legacy
///   action's side effect or an interceptor), waiting for it if need be.
/// - ``advance(by:fileID:filePath:line:column:)`` moves the test clock, letting the side effects
///   it wakes run, and settles the store after each wake-up.
/// - ``finish(fileID:filePath:line:column:)`` (or releasing the store, or ``withTestStore(_:fileID:filePath:line:column:_:)``)
///   fails on what is left: received items not asserted, side effects still running, promises of
///   sent items not settled, and errors thrown by listeners added with ``addListener(_:)``.
///
/// Side effects see time through the ``clock`` (put it in the dependencies with
/// `prepareDependencies`); their tasks run on the clock's executor, so the test store knows when
/// every one has suspended. Failures go to the framework running the test (Swift Testing or
/// XCTest) at the caller's line, through ``TestFailureReporter``.
public final class TestStore<S: State, D: SideEffectDependencyContainer>: Sendable {
    /// The store under test.
    public let store: Store<S, D>
    /// The clock the side effects sleep on (through the dependencies) and whose executor runs
    /// their tasks.
    public let clock: TestClock

    // Each piece of shared state below sits behind its own lock (a `LockedValue`), taken for one
    // read or change at a time; no two are ever held together.

    /// What the store has handled and how far the test has asserted it; fed by the recording
    /// interceptor and task starter (TestStore+Recording.swift).
    let log: LockedValue<HandledLog<S>>
    private let settings: LockedValue<Settings>
    /// The promises of the items the test sent, checked at the end of the test.
    let sends: LockedValue<[Sent]>
    /// What listeners added with ``addListener(_:)`` threw, reported at the end of the test.
    let listenerErrors = LockedValue<[String]>([])
    /// Whether ``finish(fileID:filePath:line:column:)`` has begun (it runs once).
    let finished = LockedValue(false)
    /// Where failures and notes go.
    let reporter: TestFailureReporter
    /// Where the test store was made, for failures found when it is released.
    let creation: TestSourceLocation

    private struct Settings {
        var exhaustivity: Exhaustivity
        var timeout: Duration
    }

    /// A sent item's promise, for the check at the end of the test.
    struct Sent {
        let typeName: String
        let promise: Promise<any Sendable>
        let location: TestSourceLocation
    }

    /// How strictly the test is checked (see ``Exhaustivity``); may be changed during a test.
    public var exhaustivity: Exhaustivity {
        get { settings.withLock { $0.exhaustivity } }
        set { settings.withLock { $0.exhaustivity = newValue } }
    }

    /// How long (in real time) a step waits for the store: for a sent item to be handled, for a
    /// received item to arrive, for the store to settle. A wait that runs out fails the test.
    public var timeout: Duration {
        get { settings.withLock { $0.timeout } }
        set { settings.withLock { $0.timeout = newValue } }
    }

    /// The store's current state.
    public var state: S {
        store.state
    }

    /// The store's dependencies (made by `D.init(dispatch:getState:)`, then changed by
    /// `prepareDependencies`).
    public var dependencies: D {
        store.dependencies
    }

    /// Every item the store has handled so far, in order.
    public var handledItems: [HandledItem<S>] {
        log.withLock { $0.items }
    }

    /// A test store with the app's interceptors (observer rules included) and a configuration of
    /// its own: the state initializer runs in the initialiser, listeners run on a queue of the test
    /// store's own, and async side effects run on the clock's executor. Failures go to `reporter`,
    /// by default to the framework running the test that makes the store. Without a `clock`, the
    /// test store makes one that reports to the same place.
    ///
    /// `prepareDependencies` runs on the dependencies right after they are made, before the store
    /// starts (so an `OnStart` rule's side effect already sees them): swap an API client for a fake,
    /// hand them the ``clock``. The store then starts: what the start dispatches (an `OnStart`
    /// rule's items) is received, and the first `send` or `receive` waits for it.
    public convenience init(
        initialState: S,
        interceptors: [StoreInterceptor] = [],
        clock: TestClock? = nil,
        exhaustivity: Exhaustivity = .on,
        timeout: Duration = .seconds(5),
        reporter: TestFailureReporter? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        prepareDependencies: @escaping (D) -> Void = { _ in }
    ) {
        self.init(
            initialState: initialState,
            interceptors: interceptors,
            configuration: Self.defaultConfiguration(),
            clock: clock,
            exhaustivity: exhaustivity,
            timeout: timeout,
            reporter: reporter,
            fileID: fileID,
            filePath: filePath,
            line: line,
            column: column,
            prepareDependencies: prepareDependencies
        )
    }

    /// A test store with a ready store configuration (its listener executor, signpost logger and
    /// memory release are used). The state initializer runs in the initialiser whatever the
    /// configuration says, and async side effects run on the clock's executor.
    public convenience init(
        initialState: S,
        interceptors: [StoreInterceptor] = [],
        configuration: Store<S, D>.Configuration,
        clock: TestClock? = nil,
        exhaustivity: Exhaustivity = .on,
        timeout: Duration = .seconds(5),
        reporter: TestFailureReporter? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        prepareDependencies: @escaping (D) -> Void = { _ in }
    ) {
        self.init(
            initialState: initialState,
            interceptors: Interceptors(interceptors),
            configuration: configuration,
            clock: clock,
            exhaustivity: exhaustivity,
            timeout: timeout,
            reporter: reporter,
            fileID: fileID,
            filePath: filePath,
            line: line,
            column: column,
            prepareDependencies: prepareDependencies
        )
    }

    /// A test store with the app's interceptors composed with ``Interceptors`` (interceptor values
    /// and closures), and the default configuration of ``init(initialState:interceptors:clock:exhaustivity:timeout:reporter:fileID:filePath:line:column:prepareDependencies:)``.
    public convenience init(
        initialState: S,
        interceptors: Interceptors,
        clock: TestClock? = nil,
        exhaustivity: Exhaustivity = .on,
        timeout: Duration = .seconds(5),
        reporter: TestFailureReporter? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        prepareDependencies: @escaping (D) -> Void = { _ in }
    ) {
        self.init(
            initialState: initialState,
            interceptors: interceptors,
            configuration: Self.defaultConfiguration(),
            clock: clock,
            exhaustivity: exhaustivity,
            timeout: timeout,
            reporter: reporter,
            fileID: fileID,
            filePath: filePath,
            line: line,
            column: column,
            prepareDependencies: prepareDependencies
        )
    }

    /// A test store with the app's interceptors composed with ``Interceptors`` and a ready store
    /// configuration; otherwise as the initialiser taking closure interceptors.
    public init(
        initialState: S,
        interceptors: Interceptors,
        configuration: Store<S, D>.Configuration,
        clock: TestClock? = nil,
        exhaustivity: Exhaustivity = .on,
        timeout: Duration = .seconds(5),
        reporter: TestFailureReporter? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        prepareDependencies: @escaping (D) -> Void = { _ in }
    ) {
        let log = LockedValue(HandledLog<S>())
        let activity = ActivityPoke()
        let reporter = reporter ?? .forCurrentTest()
        let clock = clock ?? TestClock(reporter: reporter)
        self.log = log
        self.clock = clock
        self.settings = LockedValue(Settings(exhaustivity: exhaustivity, timeout: timeout))
        self.sends = LockedValue([])
        self.reporter = reporter
        self.creation = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        var testConfiguration = Store<S, D>.Configuration(
            stateInitializerAsyncProvider: ImmediateExecutor(),
            listenersAsyncProvider: configuration.listenersAsyncProvider,
            signpostLogger: configuration.signpostLogger,
            releasesMemoryAfterBursts: configuration.releasesMemoryAfterBursts
        )
        testConfiguration.asyncSideEffectTaskStarter = Self.taskStarter(log: log, clock: clock, activity: activity)
        store = Store(
            interceptors: Interceptors {
                Recorder(log: log, activity: activity)
                interceptors
                ArrivalMarker(log: log)
            },
            stateInitializer: { initialState },
            dependenciesInitializer: { dispatch, getState in
                let dependencies = D(dispatch: dispatch, getState: getState)
                prepareDependencies(dependencies)
                return dependencies
            },
            configuration: testConfiguration
        )
        // Weak: the store keeps the recorder, and a clock may outlive this test store.
        let store = self.store
        let poke: @Sendable () -> Void = { [weak store] in store?.pokeActivity() }
        activity.connect(poke)
        clock.onChange(poke)
    }

    /// The configuration of the initialisers that take none: listeners on a queue of the test
    /// store's own (one per test store).
    private static func defaultConfiguration() -> Store<S, D>.Configuration {
        .init(listenersAsyncProvider: DispatchQueue(label: "KatanaTesting.TestStore.listeners"))
    }

    deinit {
        guard !finished.withLock({ $0 }) else { return }
        // Released without `finish()`: report what can be seen without waiting.
        let problems = leftovers(settled: true)
        if !problems.isEmpty {
            reporter.report(TestFailure(
                "The test store was released without finish(), and the test left work behind:\n" + problems.joined(separator: "\n"),
                location: creation
            ))
        }
        let store = self.store
        Task { await store.shutdown(.cancelWork, deadline: .zero) }
    }
}
