import Dispatch
import Testing
@testable import Katana

/// A promise settles exactly once, and each callback runs exactly once.
@Suite struct PromiseSettlingTests {
    @Test func resolveTwice_firstValueWins() throws {
        let source = Controlled<Int>()
        source.resolve(1)
        source.resolve(2)
        source.reject(TestError(code: 3))
        #expect(try source.promise.wait(timeout: .seconds(1)) == 1)
    }

    @Test func rejectThenResolve_firstRejectionWins() {
        let source = Controlled<Int>()
        source.reject(TestError(code: 1))
        source.resolve(2)
        source.reject(TestError(code: 3))
        #expect(rejection(of: source.promise) as? TestError == TestError(code: 1))
    }

    @Test func bodyResolvingTwice_firstValueWins() throws {
        let promise = Promise<Int> { resolve, reject in
            resolve(10)
            resolve(20)
            reject(TestError(code: 0))
        }
        #expect(try promise.wait(timeout: .seconds(1)) == 10)
    }

    @Test func callbacks_runOnceEach_evenWhenSettledRepeatedly() throws {
        let source = Controlled<Int>()
        let thenCalls = Counter()
        let alwaysCalls = Counter()
        let mapped = source.promise.then { value -> Int in
            thenCalls.increment()
            return value
        }
        let always = source.promise.always { alwaysCalls.increment() }
        for value in 1...5 { source.resolve(value) }
        #expect(try mapped.wait(timeout: .seconds(10)) == 1)
        try always.wait(timeout: .seconds(10))
        // A callback added after settling also runs once.
        let late = Counter()
        try source.promise.then { _ in late.increment() }.wait(timeout: .seconds(10))
        #expect(thenCalls.value == 1)
        #expect(alwaysCalls.value == 1)
        #expect(late.value == 1)
    }

    @Test(arguments: 0..<5)
    func concurrentResolveAndReject_exactlyOneOutcome_everyCallbackOnce(round: Int) throws {
        let source = Controlled<Int>()
        let fulfilledWith = Recorder<Int>()
        let rejectedWith = Recorder<Int>()
        let alwaysCalls = Counter()
        let registered = Recorder<Promise<Int>>()
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
        let chains = registered.values
        #expect(chains.count == 32)
        for chain in chains {
            _ = rejection(of: chain)
        }
        #expect(alwaysCalls.value == 32)
        let values = fulfilledWith.values
        let errors = rejectedWith.values
        // Either every callback saw the same value, or every one saw the same error.
        #expect(values.count + errors.count == 32)
        #expect(values.isEmpty || errors.isEmpty)
        #expect(Set(values).count <= 1)
        #expect(Set(errors).count <= 1)
        if let value = values.first {
            #expect(try source.promise.wait(timeout: .seconds(1)) == value)
        } else if let code = errors.first {
            #expect(rejection(of: source.promise) as? TestError == TestError(code: code))
        }
    }
}
