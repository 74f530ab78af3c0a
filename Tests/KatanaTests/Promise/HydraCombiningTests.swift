import Dispatch
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// Hydra's operators over several promises: `zip`, `any`, `map(as:)` and `reduce`.
@Suite struct HydraCombiningTests {
    // MARK: - zip

    @Test func zip_ofTwo_fulfilsWithBothValues() async throws {
        let number = Controlled<Int>()
        let zipped = Promise<Void>.zip(number.promise, Promise(resolved: "two"))
        DispatchQueue.global().async { number.resolve(1) }
        let (first, second) = try await zipped.settled()
        #expect(first == 1)
        #expect(second == "two")
    }

    @Test func zip_ofThreeAndFour_fulfilWithEveryValueInOrder() async throws {
        let three = Promise<Void>.zip(a: Promise(resolved: 1), b: Promise(resolved: "b"), c: Promise(resolved: 3.5))
        let (a, b, c) = try await three.settled()
        #expect(a == 1 && b == "b" && c == 3.5)

        let late = Controlled<Bool>()
        let four = Promise<Void>.zip(
            a: Promise(resolved: 1),
            b: Promise(resolved: "b"),
            c: Promise(resolved: 3.5),
            d: late.promise
        )
        DispatchQueue.global().async { late.resolve(true) }
        let (w, x, y, z) = try await four.settled()
        #expect(w == 1 && x == "b" && y == 3.5 && z)
    }

    @Test func zip_rejectsWithTheFirstError() async throws {
        let never = Controlled<Int>()
        let two = Promise<Void>.zip(never.promise, Promise<String>(rejected: TestError(code: 2)))
        #expect(try await rejection(of: two) as? TestError == TestError(code: 2))
        let four = Promise<Void>.zip(
            a: never.promise,
            b: Promise(resolved: "b"),
            c: Promise<Double>(rejected: TestError(code: 4)),
            d: Controlled<Bool>().promise
        )
        #expect(try await rejection(of: four) as? TestError == TestError(code: 4))
    }

    @Test func zip_settlesFromTheGivenQueue() async throws {
        let marked = MarkedQueue("test.hydra.zip")
        let late = Controlled<Int>()
        let zipped = Promise<Void>.zip(in: marked.queue, Promise(resolved: 1), late.promise)
        let settledOn = LockedList<String>()
        zipped.observe { _ in settledOn.append(MarkedQueue.current ?? "other") }
        late.resolve(2)
        _ = try await zipped.settled()
        try await settledOn.waitUntil("the observer to run") { $0 == ["test.hydra.zip"] }
    }

    @Test func zip_ofDispatches_fulfilsWithEachResult() async throws {
        let store = makeStore()
        let both = Promise<Void>.zip(store.dispatch(Increment(amount: 2)), store.dispatch(Constant(value: 7)))
        let (_, constant) = try await both.settled()
        #expect(constant == 7)
        #expect(store.state.counter == 2)
    }

    // MARK: - any

    @Test func any_firstFulfilmentWins() async throws {
        let slow = Controlled<Int>()
        let first = any(slow.promise, Promise(resolved: 2))
        #expect(try await first.settled() == 2)
        slow.resolve(1)
        #expect(try await first.settled() == 2)
    }

    @Test func any_firstToSettleIsARejection_rejects() async throws {
        let slow = Controlled<Int>()
        let first = any([slow.promise, Promise<Int>(rejected: TestError(code: 3))])
        #expect(try await rejection(of: first) as? TestError == TestError(code: 3))
        slow.resolve(1)
        #expect(try await rejection(of: first) as? TestError == TestError(code: 3))
    }

    @Test func any_ofNoPromises_rejects() async throws {
        let none: [Promise<Int>] = []
        #expect(try await rejection(of: any(none))?.katana == .anyOfNoPromises)
    }

    @Test func any_settlesFromTheGivenQueue() async throws {
        let marked = MarkedQueue("test.hydra.any")
        let late = Controlled<Int>()
        let first = any(in: marked.queue, late.promise, Controlled<Int>().promise)
        let settledOn = LockedList<String>()
        first.observe { _ in settledOn.append(MarkedQueue.current ?? "other") }
        late.resolve(4)
        #expect(try await first.settled() == 4)
        try await settledOn.waitUntil("the observer to run") { $0 == ["test.hydra.any"] }
    }

    // MARK: - map(as:)

    @Test func mapSeries_transformsOneAtATimeInOrder() async throws {
        let marked = MarkedQueue("test.hydra.map")
        let active = LockedValue(0)
        let mostActive = LockedList<Int>()
        let order = LockedList<String>()
        let mapped = map(marked.queue, as: .series, [1, 2, 3, 4]) { item -> Promise<Int> in
            order.append("\(item)@\(MarkedQueue.current ?? "other")")
            mostActive.append(active.increment())
            return Promise(in: .global()) { resolve, _ in
                usleep(2_000)
                active.decrement()
                resolve(item * 10)
            }
        }
        #expect(try await mapped.settled() == [10, 20, 30, 40])
        #expect(order.all == [1, 2, 3, 4].map { "\($0)@test.hydra.map" })
        #expect(mostActive.all.max() == 1)
    }

    @Test func mapParallel_startsEveryItemBeforeAnyFinishes_andKeepsTheOrder() async throws {
        let started = LockedList<Controlled<Int>>()
        let mapped = map(as: .parallel, 1...4) { (_: Int) -> Promise<Int> in
            let step = Controlled<Int>()
            started.append(step)
            return step.promise
        }
        try await started.waitForCount(4)
        for (index, step) in started.all.enumerated().reversed() {
            step.resolve(index + 1)
        }
        #expect(try await mapped.settled() == [1, 2, 3, 4])
    }

    @Test func map_rejectsWithTheFirstError_andSeriesStopsThere() async throws {
        let transformed = LockedList<Int>()
        let series = map(as: .series, [1, 2, 3]) { (item: Int) -> Promise<Int> in
            transformed.append(item)
            return item == 2 ? Promise(rejected: TestError(code: item)) : Promise(resolved: item)
        }
        #expect(try await rejection(of: series) as? TestError == TestError(code: 2))
        #expect(transformed.all == [1, 2])

        let parallel = map(as: .parallel, [1, 2, 3]) { (item: Int) throws -> Promise<Int> in
            if item == 3 { throw TestError(code: 30) }
            return Promise(resolved: item)
        }
        #expect(try await rejection(of: parallel) as? TestError == TestError(code: 30))
    }

    @Test func map_ofNoItems_fulfilsWithAnEmptyArray() async throws {
        let empty = map(as: .series, [Int]()) { Promise(resolved: $0) }
        #expect(try await empty.settled() == [])
    }

    // MARK: - reduce

    @Test func reduce_accumulatesInOrder_onTheGivenQueue() async throws {
        let marked = MarkedQueue("test.hydra.reduce")
        let queues = LockedList<String>()
        let joined = reduce(in: marked.queue, ["a", "b", "c"], "") { partial, item -> Promise<String> in
            queues.append(MarkedQueue.current ?? "other")
            return Promise(in: .global()) { resolve, _ in resolve(partial + item) }
        }
        #expect(try await joined.settled() == "abc")
        #expect(queues.all == Array(repeating: "test.hydra.reduce", count: 3))
    }

    @Test func reduce_rejectsWithTheFirstError_andStops() async throws {
        let folded = LockedList<Int>()
        let sum = reduce([1, 2, 3], 0) { (partial: Int, item: Int) throws -> Promise<Int> in
            folded.append(item)
            if item == 2 { throw TestError(code: 2) }
            return Promise(resolved: partial + item)
        }
        #expect(try await rejection(of: sum) as? TestError == TestError(code: 2))
        #expect(folded.all == [1, 2])
    }

    @Test func reduce_ofNoItems_fulfilsWithTheInitialValue() async throws {
        let sum = reduce([Int](), 5) { partial, item in Promise(resolved: partial + item) }
        #expect(try await sum.settled() == 5)
    }
}
