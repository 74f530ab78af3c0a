import Dispatch
import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// A pending promise and the functions that settle it, taken from the public body initialiser.
struct Controlled<Value: Sendable>: Sendable {
    let promise: Promise<Value>
    let resolve: @Sendable (Value) -> Void
    let reject: @Sendable (any Error) -> Void

    init() {
        let captured = LockedValue<(resolve: (@Sendable (Value) -> Void)?, reject: (@Sendable (any Error) -> Void)?)>((nil, nil))
        promise = Promise { resolve, reject in
            captured.withLock { $0 = (resolve, reject) }
        }
        let (resolve, reject) = captured.withLock { $0 }
        self.resolve = resolve!
        self.reject = reject!
    }
}

/// A queue that can tell whether code runs on it.
struct MarkedQueue: Sendable {
    private static let key = DispatchSpecificKey<String>()
    let queue: DispatchQueue
    let name: String

    init(_ name: String) {
        self.name = name
        queue = DispatchQueue(label: name)
        queue.setSpecific(key: Self.key, value: name)
    }

    /// The name of the marked queue the caller runs on, if any.
    static var current: String? {
        DispatchQueue.getSpecific(key: key)
    }
}

/// A body-based promise whose body (run on `queue`, or at once without one) fails, with the
/// attempt number as code, until attempt `succeedOn`; `retry` runs it again.
func flakyPromise(attempts: LockedValue<Int>, succeedOn: Int, queue: DispatchQueue? = nil) -> Promise<Int> {
    Promise(in: queue) { resolve, reject in
        let attempt = attempts.increment()
        if attempt >= succeedOn {
            resolve(attempt)
        } else {
            reject(TestError(code: attempt))
        }
    }
}

/// Checks that `chaining`, given a promise rejected with `TestError(code: code)`, passes that
/// rejection on without running its body (whose runs the body counts in the counter it is given).
func expectSkipsItsBody<T>(
    onRejectionWithCode code: Int,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ chaining: (Promise<Int>, LockedValue<Int>) -> Promise<T>
) async throws {
    let calls = LockedValue(0)
    let chained = chaining(Promise<Int>(rejected: TestError(code: code)), calls)
    #expect(try await rejection(of: chained) as? TestError == TestError(code: code), sourceLocation: sourceLocation)
    #expect(calls.value == 0, sourceLocation: sourceLocation)
}
