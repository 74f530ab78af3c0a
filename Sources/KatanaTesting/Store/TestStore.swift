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

    private let log: LockedValue<HandledLog<S>>
    private let settings: LockedValue<Settings>
    private let sends: LockedValue<[Sent]>
    private let listenerErrors = LockedValue<[String]>([])
    private let finished = LockedValue(false)
    private let reporter: TestFailureReporter
    private let creation: TestSourceLocation

    private struct Settings {
        var exhaustivity: Exhaustivity
        var timeout: Duration
    }

    /// A sent item's promise, for the check at the end of the test.
    private struct Sent {
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
            configuration: .init(listenersAsyncProvider: DispatchQueue(label: "KatanaTesting.TestStore.listeners")),
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
    public init(
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
        let log = LockedValue(HandledLog<S>())
        let reporter = reporter ?? .forCurrentTest()
        let clock = clock ?? TestClock(reporter: reporter)
        self.log = log
        self.clock = clock
        self.settings = LockedValue(Settings(exhaustivity: exhaustivity, timeout: timeout))
        self.sends = LockedValue([])
        self.reporter = reporter
        self.creation = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let testConfiguration = Store<S, D>.Configuration(
            stateInitializerAsyncProvider: ImmediateExecutor(),
            listenersAsyncProvider: configuration.listenersAsyncProvider,
            signpostLogger: configuration.signpostLogger,
            releasesMemoryAfterBursts: configuration.releasesMemoryAfterBursts,
            asyncSideEffectTaskStarter: Self.taskStarter(log: log, clock: clock)
        )
        store = Store(
            interceptors: [Self.recorder(log: log)] + interceptors + [Self.arrivalMarker(log: log)],
            stateInitializer: { initialState },
            dependenciesInitializer: { dispatch, getState in
                let dependencies = D(dispatch: dispatch, getState: getState)
                prepareDependencies(dependencies)
                return dependencies
            },
            configuration: testConfiguration
        )
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

    // MARK: - Sending

    /// Dispatches `item`, waits until the store has handled it and settled, and checks the state:
    /// the state before the item, changed by `updateExpectedState`, must equal the state after it
    /// (see the type's description; with ``Exhaustivity/off`` only what the closure sets is
    /// compared). Returns the dispatch's promise.
    ///
    /// With ``Exhaustivity/on``, every item received before must have been asserted first.
    @discardableResult
    public func send<Item: Dispatchable>(
        _ item: Item,
        assert updateExpectedState: ((_ state: inout S) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Promise<any Sendable> {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let name = String(reflecting: Item.self)
        if !(await settle()) {
            fail("Before sending \(name), the store did not settle within \(timeout): \(busyDescription())", at: location)
        }
        dealWithUnasserted(before: "sending \(name)", at: location)
        log.withLock { $0.expectSend(of: Item.self) }
        let promise = store.anyDispatch(item)
        sends.withLock { $0.append(Sent(typeName: name, promise: promise, location: location)) }
        let settled = await settle()
        guard let handled = log.withLock({ $0.takeSent() }) else {
            log.withLock { $0.abandonSend() }
            let why = promise.isPending
                ? "the store did not begin to handle it within \(timeout)"
                : "the store did not handle it: \(await Self.outcome(of: promise))"
            fail("\(name) was sent, but \(why).", at: location)
            return promise
        }
        if !settled {
            fail("After sending \(name), the store did not settle within \(timeout): \(busyDescription())", at: location)
        }
        switch handled.outcome {
        case .blocked:
            fail("\(name) was sent, but an interceptor returned without passing it on, so the store did not handle it.", at: location)
        case .rejected(let error):
            fail("\(name) was sent, but it was rejected: \(error)", at: location)
        case .handled, .inProgress:
            // A side effect's state is the state it left once settled: after what it dispatched.
            let actual = handled.isSideEffect ? store.state : (handled.stateAfter ?? store.state)
            check(before: handled.stateBefore, actual: actual, updateExpectedState, after: "sending \(name)", at: location)
        }
        return promise
    }

    // MARK: - Receiving

    /// Checks that the next item the store handled on its own (not sent by the test) is an `Item`,
    /// waiting up to `timeout` (default: ``timeout``) for it to arrive, and that it changed the
    /// state as `updateExpectedState` says (for a side effect: the state when its body returned,
    /// or when its task started). With ``Exhaustivity/off``, received items of other types are
    /// skipped.
    public func receive<Item: Dispatchable>(
        _ type: Item.Type,
        timeout: Duration? = nil,
        assert updateExpectedState: ((_ state: inout S) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(String(reflecting: Item.self), timeout: timeout, matching: { $0 is Item }, updateExpectedState, at: location)
    }

    /// Checks that the next item the store handled on its own is one that `predicate` accepts
    /// (`description` names it in messages); otherwise as ``receive(_:timeout:assert:fileID:filePath:line:column:)``.
    public func receive(
        _ description: String,
        timeout: Duration? = nil,
        where predicate: @escaping @Sendable (any Dispatchable) -> Bool,
        assert updateExpectedState: ((_ state: inout S) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(description, timeout: timeout, matching: predicate, updateExpectedState, at: location)
    }

    private func receive(
        _ description: String,
        timeout: Duration?,
        matching: (any Dispatchable) -> Bool,
        _ updateExpectedState: ((inout S) throws -> Void)?,
        at location: TestSourceLocation
    ) async {
        let wait = timeout ?? self.timeout
        let deadline = ContinuousClock.now + wait
        while true {
            if let next = log.withLock({ $0.nextUnasserted }) {
                if case .inProgress = next.outcome, ContinuousClock.now < deadline {
                    await Self.pause()
                    continue
                }
                if matching(next.item) {
                    log.withLock { $0.markNextAsserted() }
                    check(before: next.stateBefore, actual: next.stateAfter ?? next.stateBefore, updateExpectedState, after: "receiving \(description)", at: location)
                    return
                }
                if exhaustivity.isOn {
                    fail("Expected to receive \(description), but the next item the store handled on its own was \(next.typeName) (#\(next.index)). Receive it first, or set exhaustivity to .off to skip it.", at: location)
                    return
                }
                log.withLock { $0.markNextAsserted() }
                if exhaustivity.showsSkipped {
                    note("Skipped the received \(next.typeName) (#\(next.index)) while waiting to receive \(description).", at: location)
                }
                continue
            }
            if ContinuousClock.now >= deadline {
                fail("Expected to receive \(description) within \(wait), but the store handled nothing more on its own (\(busyDescription())).", at: location)
                return
            }
            await Self.pause()
        }
    }

    /// Lets the store settle, then marks every received item not asserted yet as asserted, without
    /// checking it: for an exhaustive test that does not care what some step dispatched. Returns
    /// how many were skipped; with `.off(showSkipped: true)` each is also reported as a note.
    @discardableResult
    public func skipReceivedItems(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Int {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        if !(await settle()) {
            fail("Before skipping the received items, the store did not settle within \(timeout): \(busyDescription())", at: location)
        }
        let skipped = log.withLock { $0.skipAllUnasserted() }
        if exhaustivity.showsSkipped {
            for item in skipped {
                note("Skipped the received \(item.typeName) (#\(item.index)) with skipReceivedItems().", at: location)
            }
        }
        return skipped.count
    }

    // MARK: - Time

    /// Moves the test clock `duration` forward: each sleeper due on the way wakes at its own
    /// deadline, and after each wake-up the store settles (what the woken side effect dispatched
    /// is handled) before the clock moves on, so a side effect that sleeps again within the
    /// advanced time is woken again.
    public func advance(
        by duration: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard duration >= .zero else {
            fail("advance(by: \(duration)): the duration is negative, and a test clock only moves forward.", at: location)
            return
        }
        let target = clock.now.advanced(by: duration)
        _ = await settle()
        while let next = clock.sleepers.first, next.deadline <= target {
            await clock.advance(to: next.deadline, fileID: fileID, filePath: filePath, line: line, column: column)
            if !(await settle()) {
                fail("After the test clock reached \(next.deadline), the store did not settle within \(timeout): \(busyDescription())", at: location)
                return
            }
        }
        if clock.now < target {
            await clock.advance(to: target, fileID: fileID, filePath: filePath, line: line, column: column)
        }
        _ = await settle()
    }

    // MARK: - Listeners

    /// Adds a listener that may throw: an error it throws fails the test at ``finish(fileID:filePath:line:column:)``.
    @discardableResult
    public func addListener(_ listener: @escaping @Sendable (_ old: S, _ new: S) throws -> Void) -> StoreUnsubscribe {
        let errors = listenerErrors
        return store.addListener { old, new in
            do {
                try listener(old, new)
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
    }

    // MARK: - The end of a test

    /// Waits (bounded) for the store to settle, fails on what the test left behind, and shuts the
    /// store down (cancelling what still runs): received items not asserted (a note with
    /// `.off(showSkipped: true)`, nothing with `.off`), side effects still running, promises of
    /// sent items that have not settled, and errors thrown by listeners. Later calls do nothing.
    public func finish(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard finished.withLock({ wasFinished in defer { wasFinished = true }; return !wasFinished }) else { return }
        let settled = await settle()
        if exhaustivity.showsSkipped {
            for item in log.withLock({ $0.skipAllUnasserted() }) {
                note("Skipped the received \(item.typeName) (#\(item.index)): no receive asserted it.", at: location)
            }
        }
        let problems = leftovers(settled: settled)
        if !problems.isEmpty {
            fail("The test ended with work left behind:\n" + problems.joined(separator: "\n"), at: location)
        }
        await store.shutdown(.cancelWork, deadline: .zero)
    }

    /// What the test left behind, one line each.
    private func leftovers(settled: Bool) -> [String] {
        var lines: [String] = []
        if exhaustivity.isOn {
            let unasserted = log.withLock { $0.unassertedItems }
            if !unasserted.isEmpty {
                lines.append("• \(Self.counted(unasserted.count, "received item", "received items")) not asserted with receive:")
                lines += unasserted.map { "    \($0.typeName) (#\($0.index))" }
            }
        }
        let running = log.withLock { $0.runningSideEffectItems }
        if !running.isEmpty {
            lines.append("• \(Self.counted(running.count, "side effect", "side effects")) still running:")
            lines += running.map { "    \($0.typeName) (#\($0.index))" }
        }
        let sleepers = clock.sleepers
        if !sleepers.isEmpty {
            lines.append("• \(Self.counted(sleepers.count, "sleep", "sleeps")) still waiting on the test clock (now \(clock.now)): until " + sleepers.map { "\($0.deadline)" }.joined(separator: ", ") + "; advance the clock, or cancel the side effects")
        }
        if !settled {
            lines.append("• the store did not settle within \(timeout): \(busyDescription())")
        }
        let pending = sends.withLock { $0.filter { $0.promise.isPending } }
        if !pending.isEmpty {
            lines.append("• \(Self.counted(pending.count, "promise of a sent item", "promises of sent items")) not settled:")
            lines += pending.map { "    \($0.typeName), sent at \($0.location.fileID):\($0.location.line)" }
        }
        let thrown = listenerErrors.withLock { $0 }
        if !thrown.isEmpty {
            lines.append("• \(Self.counted(thrown.count, "listener call", "listener calls")) threw:")
            lines += thrown.map { "    \($0)" }
        }
        return lines
    }

    // MARK: - Checks

    /// Compares `actual` with `before` changed by the closure (exhaustive), or with `actual`
    /// changed by it (non-exhaustive: only the fields it sets can differ).
    private func check(
        before: S,
        actual: S,
        _ updateExpectedState: ((inout S) throws -> Void)?,
        after what: String,
        at location: TestSourceLocation
    ) {
        var expected = exhaustivity.isOn ? before : actual
        do {
            try updateExpectedState?(&expected)
        } catch {
            fail("The state assertion after \(what) threw: \(error)", at: location)
            return
        }
        let equal = Self.areEqual(expected, actual)
        if equal == true {
            return
        }
        if let diff = StateDiff.diff(expected: expected, actual: actual) {
            fail("State after \(what) differs from the expectation \(StateDiff.legend):\n\(diff)", at: location)
        } else if equal == false {
            fail("State after \(what) is not == to the expectation, though the two draw the same:\n\(StateDiff.render(actual))", at: location)
        }
    }

    /// Whether two states are equal by the state's own `==`; nil when the state is not
    /// `Equatable`, and the states are then compared by their drawings only.
    private static func areEqual(_ lhs: S, _ rhs: S) -> Bool? {
        guard let lhs = lhs as? any Equatable else { return nil }
        return lhs.isEqual(to: rhs)
    }

    /// Before a send: received items not asserted fail the test (exhaustive), or are skipped.
    private func dealWithUnasserted(before what: String, at location: TestSourceLocation) {
        if exhaustivity.isOn {
            let unasserted = log.withLock { $0.unassertedItems }
            guard !unasserted.isEmpty else { return }
            fail(
                "Before \(what), receive must assert \(Self.counted(unasserted.count, "received item", "received items")): "
                    + unasserted.map { "\($0.typeName) (#\($0.index))" }.joined(separator: ", "),
                at: location
            )
            return
        }
        let skipped = log.withLock { $0.skipAllUnasserted() }
        if exhaustivity.showsSkipped {
            for item in skipped {
                note("Skipped the received \(item.typeName) (#\(item.index)) before \(what).", at: location)
            }
        }
    }

    // MARK: - Settling

    /// Waits until the store and the clock have nothing left to do right now: no item waiting or
    /// being handled, no listener call pending, no synchronous side effect at work, and every task
    /// on the clock's executor suspended or ended — seen twice in a row with nothing dispatched in
    /// between. False when ``timeout`` (real time) passes first. The store is looked at after
    /// every pause, the last one included, so a pause that overruns the deadline (a starved test
    /// process) or a zero timeout does not report a settled store as unsettled.
    private func settle() async -> Bool {
        let deadline = ContinuousClock.now + timeout
        var looks = 0
        while true {
            let first = store.workSnapshot
            if first.isIdle, clock.isIdle, !log.withLock({ $0.hasItemInProgress }) {
                await Task.yield()
                if store.workSnapshot == first, clock.isIdle, !log.withLock({ $0.hasItemInProgress }) {
                    return true
                }
            }
            if ContinuousClock.now >= deadline {
                return false
            }
            looks += 1
            await Self.pause(afterLooks: looks)
        }
    }

    /// What keeps the store busy, for messages.
    private func busyDescription() -> String {
        let snapshot = store.workSnapshot
        var parts: [String] = []
        if !snapshot.isIdle {
            parts.append("items are waiting or being handled, or a synchronous side effect is running")
        }
        if snapshot.runningAsyncSideEffects > 0 {
            parts.append("\(Self.counted(snapshot.runningAsyncSideEffects, "async side effect", "async side effects")) running or suspended")
        }
        if !clock.isIdle {
            parts.append("tasks on the test clock's executor are running (one may be blocked, or awaiting something outside the store and the clock)")
        }
        return parts.isEmpty ? "nothing is running now" : parts.joined(separator: "; ")
    }

    /// "1 item", "2 items".
    private static func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
        "\(count) \(count == 1 ? singular : plural)"
    }

    /// A short real-time pause between two looks at the store.
    private static func pause() async {
        try? await Task.sleep(for: .microseconds(200))
    }

    /// The pause between two looks while settling: the first looks only yield, as most items are
    /// handled within microseconds; then a short sleep (see docs/PERFORMANCE.md, "TestStore").
    private static func pause(afterLooks looks: Int) async {
        if looks < quickLooks {
            await Task.yield()
        } else {
            await pause()
        }
    }

    /// How many looks at a busy store only yield before settling sleeps between looks.
    private static var quickLooks: Int { 50 }

    /// How a settled promise settled, for messages.
    private static func outcome(of promise: Promise<any Sendable>) async -> String {
        do {
            _ = try await promise.value
            return "its promise was fulfilled"
        } catch {
            return "its promise was rejected with \(error)"
        }
    }

    // MARK: - Reporting

    private func fail(_ message: String, at location: TestSourceLocation) {
        reporter.report(TestFailure(message, location: location))
    }

    private func note(_ message: String, at location: TestSourceLocation) {
        reporter.report(TestFailure(message, severity: .note, location: location))
    }
}

extension Equatable {
    /// Whether `self` equals `other`, when `other` is of the same type.
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
