import Dispatch
import Katana

/// The state every throughput benchmark works on: a counter the updaters bump, and fields that
/// never change (what the non-matching observer rules watch): 100 array elements, and ten groups
/// of ten stored properties. `Codable` so that a recorder can write it (the recording benchmarks).
public struct BenchState: State, Codable {
    public var counter = 0
    public var untouched = [Int](repeating: 0, count: 100)
    public var g0 = TenFields(), g1 = TenFields(), g2 = TenFields(), g3 = TenFields(), g4 = TenFields()
    public var g5 = TenFields(), g6 = TenFields(), g7 = TenFields(), g8 = TenFields(), g9 = TenFields()
    public init() {}
}

/// Ten stored properties that no updater changes.
public struct TenFields: Sendable, Equatable, Codable {
    public var f0 = 0, f1 = 0, f2 = 0, f3 = 0, f4 = 0, f5 = 0, f6 = 0, f7 = 0, f8 = 0, f9 = 0
    public init() {}

    /// Key paths to the ten fields.
    public static let fields: [KeyPath<TenFields, Int> & Sendable] = [\.f0, \.f1, \.f2, \.f3, \.f4, \.f5, \.f6, \.f7, \.f8, \.f9]
}

extension BenchState {
    /// Key paths to the 100 stored properties no updater changes (`g0.f0` … `g9.f9`).
    public static let unchangedStoredFields: [KeyPath<BenchState, Int> & Sendable] = {
        let groups: [KeyPath<BenchState, TenFields> & Sendable] = [\.g0, \.g1, \.g2, \.g3, \.g4, \.g5, \.g6, \.g7, \.g8, \.g9]
        return groups.flatMap { group in TenFields.fields.map { field in group.appending(path: field) } }
    }()
}

/// The store type of the throughput benchmarks.
public typealias BenchStore = Store<BenchState, EmptySideEffectDependencyContainer>

/// The trivial updater: one increment of the counter (`Codable`, so a recording can replay it).
public struct Increment: StateUpdater, Codable {
    public init() {}
    public func updateState(_ state: inout BenchState) {
        state.counter &+= 1
    }
}

/// A small `Codable` state for the recording benchmarks: a counter and a short name, 24 bytes (it
/// fits an existential's inline buffer, so reading it as `any State` allocates nothing), against
/// `BenchState`'s 816.
public struct SmallState: State, Codable {
    public var counter = 0
    public var name = "small"
    public init() {}
}

/// The store type of the small-state benchmarks.
public typealias SmallStore = Store<SmallState, EmptySideEffectDependencyContainer>

/// One increment of ``SmallState``'s counter.
public struct IncrementSmall: StateUpdater, Codable {
    public init() {}
    public func updateState(_ state: inout SmallState) {
        state.counter &+= 1
    }
}

/// An updater that holds the store's queue until `gate` is signalled, so that everything
/// dispatched after it stays in flight.
public struct HoldQueue: StateUpdater {
    public let gate: DispatchSemaphoreBox
    public init(gate: DispatchSemaphoreBox) { self.gate = gate }
    public func updateState(_ state: inout BenchState) {
        gate.semaphore.wait()
    }
}

/// A side effect that does nothing.
public struct NoOpSideEffect: SideEffect {
    public init() {}
    public func sideEffect(_ context: SideEffectContext<BenchState, EmptySideEffectDependencyContainer>) throws {}
}

/// An async side effect that does nothing.
public struct NoOpAsyncSideEffect: AsyncSideEffect {
    public init() {}
    public func sideEffect(_ context: SideEffectContext<BenchState, EmptySideEffectDependencyContainer>) async throws {}
}

/// An async side effect that suspends once (it yields) and does nothing else: its task goes to
/// Swift's global executor and ends there, as that of a side effect awaiting I/O would.
public struct YieldingAsyncSideEffect: AsyncSideEffect {
    public init() {}
    public func sideEffect(_ context: SideEffectContext<BenchState, EmptySideEffectDependencyContainer>) async throws {
        await Task.yield()
    }
}

/// The state of the large-state benchmarks: one array of `Int`s.
public struct ArrayState: State {
    public var items: [Int] = []
    public init() {}
    public init(count: Int, reserving extra: Int) {
        items.reserveCapacity(count + extra)
        items.append(contentsOf: 0 ..< count)
    }
}

/// The store type of the large-state benchmarks.
public typealias ArrayStore = Store<ArrayState, EmptySideEffectDependencyContainer>

/// Appends one element to the array.
public struct Append: StateUpdater {
    public init() {}
    public func updateState(_ state: inout ArrayState) {
        state.items.append(state.items.count)
    }
}

/// Shrinks the array back to `count` elements, keeping its capacity (so later appends never
/// reallocate and only a copy of the state could make them cost more).
public struct Truncate: StateUpdater {
    public let count: Int
    public init(to count: Int) { self.count = count }
    public func updateState(_ state: inout ArrayState) {
        state.items.removeLast(state.items.count - count)
    }
}

/// A side effect that blocks its worker on `gate` (a semaphore, not an announced wait) after
/// signalling `started`: what a synchronous network or file call looks like to the store.
public struct BlockOnGate: SideEffect {
    public let started: DispatchSemaphoreBox
    public let gate: DispatchSemaphoreBox
    public init(started: DispatchSemaphoreBox, gate: DispatchSemaphoreBox) {
        self.started = started
        self.gate = gate
    }
    public func sideEffect(_ context: SideEffectContext<BenchState, EmptySideEffectDependencyContainer>) throws {
        started.signal()
        gate.wait()
    }
}

/// A side effect that signals `started` as its body begins.
public struct SignalStart: SideEffect {
    public let started: DispatchSemaphoreBox
    public init(started: DispatchSemaphoreBox) { self.started = started }
    public func sideEffect(_ context: SideEffectContext<BenchState, EmptySideEffectDependencyContainer>) throws {
        started.signal()
    }
}

/// An interceptor value that passes every item on: one level of a chain, for the interceptor
/// benchmarks.
public struct PassThrough: Interceptor {
    public init() {}

    public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        try next(item)
    }
}
