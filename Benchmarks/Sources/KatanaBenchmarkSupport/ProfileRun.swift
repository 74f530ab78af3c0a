import Katana

/// The command line of the profiling programs (KatanaProfile, KatanaLegacyProfile): a workload's
/// name and how many items it dispatches.
public struct ProfileArguments {
    /// The workload to run.
    public let workload: String
    /// How many items it dispatches.
    public let count: Int

    /// Reads `<workload> [count]`, with `defaultWorkload` and 100,000 items when they are left out.
    public init(defaultWorkload: String) {
        let arguments = CommandLine.arguments.dropFirst()
        workload = arguments.first ?? defaultWorkload
        count = arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000
    }
}

/// Dispatches `count` increments to `store` from this thread, waits for the last one and checks the
/// counter: the burst the profiling programs' updater workloads run.
public func burst(_ store: BenchStore, count: Int) {
    var last: Promise<Void>?
    for _ in 0 ..< count {
        last = store.dispatch(Increment())
    }
    last?.settled("last updater")
    check(store.state.counter == count, "counter is \(store.state.counter), expected \(count)")
}

/// `burst(_:count:)` for a store of ``SmallState``.
public func burst(_ store: SmallStore, count: Int) {
    var last: Promise<Void>?
    for _ in 0 ..< count {
        last = store.dispatch(IncrementSmall())
    }
    last?.settled("last updater")
    check(store.state.counter == count, "counter is \(store.state.counter), expected \(count)")
}
