import Benchmark
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Katana
import KatanaBenchmarkSupport

/// Counts the items that reach the end of a chain; touched only by the benchmark's own thread.
private final class ChainSink: @unchecked Sendable {
    // Only the benchmark's thread calls the chain, one item at a time.
    var count = 0
}

/// Builds a chain of `interceptors` in front of `end`, the way a store does.
private func chain(
    of interceptors: [StoreInterceptor],
    context: any AnySideEffectContext,
    end: @escaping StoreInterceptorNext
) -> StoreInterceptorNext {
    var next = end
    for index in interceptors.indices.reversed() {
        next = interceptors[index](context)(next)
    }
    return next
}

/// Builds a chain of `levels` copies of one interceptor held in a variable (never in an array).
private func chain(
    repeating interceptor: StoreInterceptor,
    levels: Int,
    context: any AnySideEffectContext,
    end: @escaping StoreInterceptorNext
) -> StoreInterceptorNext {
    var next = end
    for _ in 0 ..< levels {
        next = interceptor(context)(next)
    }
    return next
}

/// What the contract's interceptor type costs by itself, without a store: items pushed on one
/// thread through chains of pass-through `StoreInterceptor` closures built the way a store builds
/// them. Taken from an array — the way `Store.init(interceptors:)` receives them — each closure
/// crosses a generic boundary and comes back wrapped in conversion thunks, and every level then
/// costs a few of them per item; the same closure held in a variable does not. The difference
/// between "10 from an array" and "0" is the floor under "10 interceptors add ≤ 50 ns per
/// dispatch" for any store that takes the contract's `[StoreInterceptor]`.
func registerReferenceBenchmarks() {
    registerInterceptorChainReferences()
    registerTaskReference()
    registerHandOffReference()
}

private func registerInterceptorChainReferences() {
    let count = Scale.dispatches
    let context = SideEffectContext<BenchState, EmptySideEffectDependencyContainer>(
        dependencies: EmptySideEffectDependencyContainer(dispatch: { _ in Promise(resolved: ()) }, getState: { BenchState() }),
        getState: { BenchState() },
        dispatch: { _ in Promise(resolved: ()) }
    )
    let passThrough: StoreInterceptor = { _ in { next in { item in try next(item) } } }
    let variants: [(name: String, build: (@escaping StoreInterceptorNext) -> StoreInterceptorNext)] = [
        ("0 pass-throughs", { end in chain(of: [], context: context, end: end) }),
        ("10 pass-throughs from an array", { end in
            chain(of: [StoreInterceptor](repeating: passThrough, count: 10), context: context, end: end)
        }),
        ("10 pass-throughs held in a variable", { end in chain(repeating: passThrough, levels: 10, context: context, end: end) }),
    ]
    for variant in variants {
        Benchmark("Reference: StoreInterceptor chain of \(variant.name), no store \(ops(count))", configuration: Configurations.burst()) { benchmark in
            let sink = ChainSink()
            let call = variant.build { _ in sink.count += 1 }
            let item: any Dispatchable = Increment()
            benchmark.startMeasurement()
            for _ in 0 ..< count {
                try call(item)
            }
            benchmark.stopMeasurement()
            check(sink.count == count, "\(variant.name): \(sink.count) items reached the end, expected \(count)")
        }
    }
}

/// What "runs as a Swift task" costs by itself: one empty task per operation, all awaited — the
/// floor under an `AsyncSideEffect`, which the contract runs as a task of its own.
private func registerTaskReference() {
    let count = Scale.sideEffects
    Benchmark("Reference: empty Task per operation, all awaited \(ops(count))", configuration: Configurations.burst()) { benchmark in
        var tasks: [Task<Int, Never>] = []
        tasks.reserveCapacity(count)
        benchmark.startMeasurement()
        for index in 0 ..< count {
            tasks.append(Task { index })
        }
        var total = 0
        for task in tasks {
            total &+= await task.value
        }
        benchmark.stopMeasurement()
        check(total == count * (count - 1) / 2, "tasks: total \(total), expected \(count * (count - 1) / 2)")
    }
}

/// The least a store with Katana's contract does per dispatch, stripped of everything else: allocate
/// a promise-like ticket with its own mutex, append it to a mutex-guarded inbox (waking a serial
/// queue when it is idle), and on that queue take the whole inbox at once, apply a counter
/// increment and settle each ticket under its mutex. No types, no existentials, no callbacks.
private final class Ticket: ManagedBuffer<Bool, pthread_mutex_t> {
    static func make() -> Ticket {
        let ticket = unsafeDowncast(create(minimumCapacity: 1) { _ in false }, to: Ticket.self)
        ticket.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }
        return ticket
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }

    func settle() {
        withUnsafeMutablePointers { done, mutex in
            pthread_mutex_lock(mutex)
            done.pointee = true
            pthread_mutex_unlock(mutex)
        }
    }
}

/// The inbox and the queue that drains it.
private final class TicketInbox: @unchecked Sendable {
    // `tickets` and `scheduled` are guarded by `mutex`; `counter` is touched only on `queue`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var tickets: [Ticket] = []
    private var scheduled = false
    private let queue = DispatchQueue(label: "Reference.inbox")
    private var counter = 0
    private let target: Int
    let done = DispatchSemaphoreBox()

    init(target: Int) {
        self.target = target
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func dispatch() -> Ticket {
        let ticket = Ticket.make()
        pthread_mutex_lock(mutex)
        tickets.append(ticket)
        let wakes = !scheduled
        scheduled = true
        pthread_mutex_unlock(mutex)
        if wakes {
            queue.async { self.drain() }
        }
        return ticket
    }

    private func drain() {
        var batch: [Ticket] = []
        while true {
            pthread_mutex_lock(mutex)
            if tickets.isEmpty {
                scheduled = false
                pthread_mutex_unlock(mutex)
                return
            }
            swap(&batch, &tickets)
            pthread_mutex_unlock(mutex)
            for ticket in batch {
                counter += 1
                ticket.settle()
            }
            batch.removeAll(keepingCapacity: true)
            if counter == target {
                done.signal()
            }
        }
    }
}

/// Registers the minimal hand-off: the floor under "updater throughput ≤ 0.4 × the queue-hop floor"
/// for any store that allocates and settles a promise per dispatch on another thread.
private func registerHandOffReference() {
    let count = Scale.dispatches
    Benchmark("Reference: minimal promise hand-off, no store \(ops(count))", configuration: Configurations.burst()) { benchmark in
        let inbox = TicketInbox(target: count)
        benchmark.startMeasurement()
        var last: Ticket?
        for _ in 0 ..< count {
            last = inbox.dispatch()
        }
        inbox.done.wait()
        benchmark.stopMeasurement()
        check(last != nil, "no ticket was dispatched")
    }
}
