import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

/// A promise settles exactly once, and each callback runs exactly once.
@Suite struct PromiseSettlingTests {
    @Test func resolveTwice_firstValueWins() async throws {
        let source = Controlled<Int>()
        source.resolve(1)
        source.resolve(2)
        source.reject(TestError(code: 3))
        #expect(try await source.promise.settled() == 1)
    }

    @Test func rejectThenResolve_firstRejectionWins() async throws {
        let source = Controlled<Int>()
        source.reject(TestError(code: 1))
        source.resolve(2)
        source.reject(TestError(code: 3))
        #expect(try await rejection(of: source.promise) as? TestError == TestError(code: 1))
    }

    @Test func bodyResolvingTwice_firstValueWins() async throws {
        let promise = Promise<Int> { resolve, reject in
            resolve(10)
            resolve(20)
            reject(TestError(code: 0))
        }
        #expect(try await promise.settled() == 10)
    }

    @Test func callbacks_runOnceEach_evenWhenSettledRepeatedly() async throws {
        let source = Controlled<Int>()
        let thenCalls = LockedValue(0)
        let alwaysCalls = LockedValue(0)
        let mapped = source.promise.then { value -> Int in
            thenCalls.increment()
            return value
        }
        let always = source.promise.always { alwaysCalls.increment() }
        for value in 1...5 { source.resolve(value) }
        #expect(try await mapped.settled() == 1)
        try await always.settled()
        // A callback added after settling also runs once.
        let late = LockedValue(0)
        try await source.promise.then { _ in late.increment() }.settled()
        #expect(thenCalls.value == 1)
        #expect(alwaysCalls.value == 1)
        #expect(late.value == 1)
    }

    @Test(arguments: 0..<5)
    func concurrentResolveAndReject_exactlyOneOutcome_everyCallbackOnce(round: Int) async throws {
        let source = Controlled<Int>()
        let fulfilledWith = LockedList<Int>()
        let rejectedWith = LockedList<Int>()
        let alwaysCalls = LockedValue(0)
        let registered = LockedList<Promise<Int>>()
        // `concurrentPerform` blocks its caller until every iteration has run: a thread of its own.
        try await onThreadOfItsOwn("the concurrent iterations") {
            DispatchQueue.concurrentPerform(iterations: 64) { index in
                // Half the threads register callbacks while the other half try to settle.
                if index.isMultiple(of: 2) {
                    registered.append(source.promise
                        .then { value -> Int in
                            fulfilledWith.append(value)
                            return value
                        }
                        .catch { error in rejectedWith.append((error as? TestError)?.code ?? -1) }
                        .always { alwaysCalls.increment() })
                } else if index % 4 == 1 {
                    source.resolve(index)
                } else {
                    source.reject(TestError(code: index))
                }
            }
        }
        let chains = registered.all
        #expect(chains.count == 32)
        for chain in chains {
            _ = try await rejection(of: chain)
        }
        #expect(alwaysCalls.value == 32)
        let values = fulfilledWith.all
        let errors = rejectedWith.all
        // Either every callback saw the same value, or every one saw the same error.
        #expect(values.count + errors.count == 32)
        #expect(values.isEmpty || errors.isEmpty)
        #expect(Set(values).count <= 1)
        #expect(Set(errors).count <= 1)
        if let value = values.first {
            #expect(try await source.promise.settled() == value)
        } else if let code = errors.first {
            #expect(try await rejection(of: source.promise) as? TestError == TestError(code: code))
        }
    }
}
