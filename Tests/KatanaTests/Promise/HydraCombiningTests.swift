import Dispatch
import Foundation
import Testing
@testable import Katana

/// Hydra's operators over several promises: `zip`, `any`, `map(as:)` and `reduce`.
@Suite struct HydraCombiningTests {
    // MARK: - zip

    @Test func zip_ofTwo_fulfilsWithBothValues() throws {
        let number = Controlled<Int>()
        let zipped = Promise<Void>.zip(number.promise, Promise(resolved: "two"))
        DispatchQueue.global().async { number.resolve(1) }
        let (first, second) = try zipped.wait(timeout: defaultTestTimeout)
        #expect(first == 1)
        #expect(second == "two")
    }

    @Test func zip_ofThreeAndFour_fulfilWithEveryValueInOrder() throws {
        let three = Promise<Void>.zip(a: Promise(resolved: 1), b: Promise(resolved: "b"), c: Promise(resolved: 3.5))
        let (a, b, c) = try three.wait(timeout: defaultTestTimeout)
        #expect(a == 1 && b == "b" && c == 3.5)

        let late = Controlled<Bool>()
        let four = Promise<Void>.zip(
            a: Promise(resolved: 1),
            b: Promise(resolved: "b"),
            c: Promise(resolved: 3.5),
            d: late.promise
        )
        DispatchQueue.global().async { late.resolve(true) }
        let (w, x, y, z) = try four.wait(timeout: defaultTestTimeout)
        #expect(w == 1 && x == "b" && y == 3.5 && z)
    }

    @Test func zip_rejectsWithTheFirstError() {
        let never = Controlled<Int>()
        let two = Promise<Void>.zip(never.promise, Promise<String>(rejected: TestError(code: 2)))
        #expect(rejection(of: two, timeout: defaultTestTimeout) as? TestError == TestError(code: 2))
        let four = Promise<Void>.zip(
            a: never.promise,
            b: Promise(resolved: "b"),
            c: Promise<Double>(rejected: TestError(code: 4)),
            d: Controlled<Bool>().promise
        )
        #expect(rejection(of: four, timeout: defaultTestTimeout) as? TestError == TestError(code: 4))
    }

    @Test func zip_settlesFromTheGivenQueue() throws {
        let marked = MarkedQueue("test.hydra.zip")
        let late = Controlled<Int>()
        let zipped = Promise<Void>.zip(in: marked.queue, Promise(resolved: 1), late.promise)
        let settledOn = Recorder<String>()
        zipped.observe { _ in settledOn.append(MarkedQueue.current ?? "other") }
        late.resolve(2)
        _ = try zipped.wait(timeout: defaultTestTimeout)
        #expect(eventually { settledOn.values == ["test.hydra.zip"] })
    }

    @Test func zip_ofDispatches_fulfilsWithEachResult() throws {
        let store = makeStore()
        let both = Promise<Void>.zip(store.dispatch(Increment(amount: 2)), store.dispatch(Constant(value: 7)))
        let (_, constant) = try both.wait(timeout: defaultTestTimeout)
        #expect(constant == 7)
        #expect(store.state.counter == 2)
    }

    // MARK: - any

    @Test func any_firstFulfilmentWins() throws {
        let slow = Controlled<Int>()
        let first = any(slow.promise, Promise(resolved: 2))
        #expect(try first.wait(timeout: defaultTestTimeout) == 2)
        slow.resolve(1)
        #expect(try first.wait(timeout: defaultTestTimeout) == 2)
    }

    @Test func any_firstToSettleIsARejection_rejects() {
        let slow = Controlled<Int>()
        let first = any([slow.promise, Promise<Int>(rejected: TestError(code: 3))])
        #expect(rejection(of: first, timeout: defaultTestTimeout) as? TestError == TestError(code: 3))
        slow.resolve(1)
        #expect(rejection(of: first, timeout: defaultTestTimeout) as? TestError == TestError(code: 3))
    }

    @Test func any_ofNoPromises_rejects() {
        let none: [Promise<Int>] = []
        #expect(rejection(of: any(none), timeout: defaultTestTimeout)?.katana == .anyOfNoPromises)
    }

    @Test func any_settlesFromTheGivenQueue() throws {
        let marked = MarkedQueue("test.hydra.any")
        let late = Controlled<Int>()
        let first = any(in: marked.queue, late.promise, Controlled<Int>().promise)
        let settledOn = Recorder<String>()
        first.observe { _ in settledOn.append(MarkedQueue.current ?? "other") }
        late.resolve(4)
        #expect(try first.wait(timeout: defaultTestTimeout) == 4)
        #expect(eventually { settledOn.values == ["test.hydra.any"] })
    }

    // MARK: - map(as:)

    @Test func mapSeries_transformsOneAtATimeInOrder() throws {
        let marked = MarkedQueue("test.hydra.map")
        let active = Counter()
        let mostActive = Recorder<Int>()
        let order = Recorder<String>()
        let mapped = map(marked.queue, as: .series, [1, 2, 3, 4]) { item -> Promise<Int> in
            order.append("\(item)@\(MarkedQueue.current ?? "other")")
            mostActive.append(active.increment())
            return Promise(in: .global()) { resolve, _ in
                usleep(2_000)
                active.decrement()
                resolve(item * 10)
            }
        }
        #expect(try mapped.wait(timeout: defaultTestTimeout) == [10, 20, 30, 40])
        #expect(order.values == [1, 2, 3, 4].map { "\($0)@test.hydra.map" })
        #expect(mostActive.values.max() == 1)
    }

    @Test func mapParallel_startsEveryItemBeforeAnyFinishes_andKeepsTheOrder() throws {
        let started = Recorder<Controlled<Int>>()
        let mapped = map(as: .parallel, 1...4) { (_: Int) -> Promise<Int> in
            let step = Controlled<Int>()
            started.append(step)
            return step.promise
        }
        #expect(eventually { started.values.count == 4 })
        for (index, step) in started.values.enumerated().reversed() {
            step.resolve(index + 1)
        }
        #expect(try mapped.wait(timeout: defaultTestTimeout) == [1, 2, 3, 4])
    }

    @Test func map_rejectsWithTheFirstError_andSeriesStopsThere() {
        let transformed = Recorder<Int>()
        let series = map(as: .series, [1, 2, 3]) { (item: Int) -> Promise<Int> in
            transformed.append(item)
            return item == 2 ? Promise(rejected: TestError(code: item)) : Promise(resolved: item)
        }
        #expect(rejection(of: series, timeout: defaultTestTimeout) as? TestError == TestError(code: 2))
        #expect(transformed.values == [1, 2])

        let parallel = map(as: .parallel, [1, 2, 3]) { (item: Int) throws -> Promise<Int> in
            if item == 3 { throw TestError(code: 30) }
            return Promise(resolved: item)
        }
        #expect(rejection(of: parallel, timeout: defaultTestTimeout) as? TestError == TestError(code: 30))
    }

    @Test func map_ofNoItems_fulfilsWithAnEmptyArray() throws {
        let empty = map(as: .series, [Int]()) { Promise(resolved: $0) }
        #expect(try empty.wait(timeout: defaultTestTimeout) == [])
    }

    // MARK: - reduce

    @Test func reduce_accumulatesInOrder_onTheGivenQueue() throws {
        let marked = MarkedQueue("test.hydra.reduce")
        let queues = Recorder<String>()
        let joined = reduce(in: marked.queue, ["a", "b", "c"], "") { partial, item -> Promise<String> in
            queues.append(MarkedQueue.current ?? "other")
            return Promise(in: .global()) { resolve, _ in resolve(partial + item) }
        }
        #expect(try joined.wait(timeout: defaultTestTimeout) == "abc")
        #expect(queues.values == Array(repeating: "test.hydra.reduce", count: 3))
    }

    @Test func reduce_rejectsWithTheFirstError_andStops() {
        let folded = Recorder<Int>()
        let sum = reduce([1, 2, 3], 0) { (partial: Int, item: Int) throws -> Promise<Int> in
            folded.append(item)
            if item == 2 { throw TestError(code: 2) }
            return Promise(resolved: partial + item)
        }
        #expect(rejection(of: sum, timeout: defaultTestTimeout) as? TestError == TestError(code: 2))
        #expect(folded.values == [1, 2])
    }

    @Test func reduce_ofNoItems_fulfilsWithTheInitialValue() throws {
        let sum = reduce([Int](), 5) { partial, item in Promise(resolved: partial + item) }
        #expect(try sum.wait(timeout: defaultTestTimeout) == 5)
    }
}
