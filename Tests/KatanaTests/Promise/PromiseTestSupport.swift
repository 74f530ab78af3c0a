import Dispatch
import Foundation
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
