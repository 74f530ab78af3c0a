import Benchmark
import Katana
import KatanaBenchmarkSupport

func registerPromiseBenchmarks() {
    let count = Scale.promises

    Benchmark("Promise: create resolved \(ops(count))", configuration: Configurations.burst()) { benchmark in
        for index in 0 ..< count {
            blackHole(Promise(resolved: index))
        }
    }

    Benchmark("Promise: create from a body that resolves \(ops(count))", configuration: Configurations.burst()) { benchmark in
        for index in 0 ..< count {
            blackHole(Promise<Int> { resolve, _ in resolve(index) })
        }
    }

    // Each `then` runs its body on a global queue, so a chain of 10 is 10 queue hops.
    let chains = Scale.promiseChains
    Benchmark("Promise: then chains of 10 (awaited) \(ops(chains))", configuration: Configurations.burst()) { benchmark in
        var ends: [Promise<Int>] = []
        ends.reserveCapacity(chains)
        for start in 0 ..< chains {
            var promise = Promise(resolved: start)
            for _ in 0 ..< 10 {
                promise = promise.then { $0 + 1 }
            }
            ends.append(promise)
        }
        for (start, end) in ends.enumerated() {
            let value = end.settled("then chain")
            check(value == start + 10, "then chain: \(value), expected \(start + 10)")
        }
    }
}
