import Benchmark
import Dispatch
import KatanaBenchmarkSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A counter behind a pthread mutex: the cheapest thread-safe hand-over there is.
private final class MutexCounter: @unchecked Sendable {
    // `value` is guarded by `mutex`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private(set) var value = 0

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(never)
    func increment() {
        pthread_mutex_lock(mutex)
        value &+= 1
        pthread_mutex_unlock(mutex)
    }
}

/// The two floors every figure is divided by, measured in the same run as the store.
func registerFloorBenchmarks() {
    let mutexOps = Scale.mutexOps
    Benchmark("Floor: mutex increment + closure call \(ops(mutexOps))", configuration: Configurations.burst()) { benchmark in
        let counter = MutexCounter()
        // Called through an opaque closure, as the store calls interceptors and listeners.
        let calls: [@Sendable () -> Void] = [{ counter.increment() }]
        let call = calls[Int.random(in: 0 ..< calls.count)]
        benchmark.startMeasurement()
        for _ in 0 ..< mutexOps {
            call()
        }
        benchmark.stopMeasurement()
        check(counter.value == mutexOps, "mutex floor: \(counter.value) increments, expected \(mutexOps)")
    }

    let hops = Scale.queueHops
    Benchmark("Floor: serial queue hop \(ops(hops))", configuration: Configurations.burst()) { benchmark in
        let queue = DispatchQueue(label: "Floor.serial")
        benchmark.startMeasurement()
        let ran = hop(onto: queue, times: hops)
        benchmark.stopMeasurement()
        check(ran == hops, "queue floor: \(ran) blocks ran, expected \(hops)")
    }

    let queue = DispatchQueue(label: "Floor.roundTrip")
    let done = DispatchSemaphoreBox()
    Benchmark("Floor: serial queue round trip \(ops(1))", configuration: Configurations.latency(iterations: Scale.roundTrips)) { _ in
        queue.async { done.signal() }
        done.wait()
    }
}
