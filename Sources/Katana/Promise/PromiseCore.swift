/// A promise's storage: its phase and retry work behind one lock, in one allocation.
///
/// Not `Sendable` itself (a `ManagedBuffer` cannot be); it crosses threads inside ``Promise`` and
/// ``PromiseHandle``, which are safe because all its state is reached through its lock.
final class PromiseCore<Value: Sendable>: LockedStorage<Promise<Value>.Storage>, ErasedPromise {

    func settle(erased outcome: Result<any Sendable, any Error>, replacing item: any Dispatchable) {
        if Value.self == Void.self {
            // A `Promise<Void>` (side effects, updaters) takes a path of its own (docs/PERFORMANCE.md,
            // "Updaters: back-to-back").
            let promise = Promise<Void>(core: Unsafe.downcast(self, to: PromiseCore<Void>.self))
            switch outcome {
            case .failure(let error):
                promise.reject(error)
            case .success:
                // A `Promise<Void>` only says "done"; any value the handled item produced is dropped.
                promise.resolve(())
            }
            return
        }
        settleGeneric(erased: outcome, replacing: item)
    }

    /// ``settle(erased:replacing:)`` for any other value type, apart from the `Void` case
    /// (docs/PERFORMANCE.md, "Side effects: no-op AsyncSideEffect").
    @inline(never)
    private func settleGeneric(erased outcome: Result<any Sendable, any Error>, replacing item: any Dispatchable) {
        let promise = Promise(core: self)
        switch outcome {
        case .failure(let error):
            promise.reject(error)
        case .success(let value):
            if let typed = value as? Value {
                promise.resolve(typed)
            } else {
                promise.reject(KatanaError.resultTypeMismatch(
                    item: typeName(of: item),
                    expected: typeName(Value.self),
                    actual: typeName(type(of: value))
                ))
            }
        }
    }

    var acceptsDone: Bool {
        Value.self == Void.self || Value.self == (any Sendable).self
    }

    func settleDone() {
        if Value.self == Void.self {
            Promise<Void>(core: Unsafe.downcast(self, to: PromiseCore<Void>.self)).resolve(())
        } else {
            settleDoneAsAny()
        }
    }

    /// ``settleDone()`` for a `Promise<any Sendable>`, apart from the common `Void` case
    /// (docs/PERFORMANCE.md, "Updaters: 100 listeners").
    @inline(never)
    private func settleDoneAsAny() {
        if let done = () as? Value {
            Promise(core: self).resolve(done)
        }
    }

    func settleDone(replacing item: any Dispatchable) {
        if Value.self == Void.self {
            // The common case, an updater's `Promise<Void>`, takes a path of its own.
            Promise<Void>(core: Unsafe.downcast(self, to: PromiseCore<Void>.self)).resolve(())
        } else {
            settle(erased: .success(()), replacing: item)
        }
    }

    var dispatchContext: CapturedContext? {
        if Value.self == Void.self {
            // The store's promises are most often `Promise<Void>`s: a path that needs no look-up
            // of the generic storage's type at run time (docs/PERFORMANCE.md, "Dispatch context").
            return Unsafe.downcast(self, to: PromiseCore<Void>.self).withLock { $0.dispatchContext }
        }
        return withLock { $0.dispatchContext }
    }

    func carry(_ context: CapturedContext?) {
        if Value.self == Void.self {
            Unsafe.downcast(self, to: PromiseCore<Void>.self).withLock { $0.dispatchContext = context }
            return
        }
        withLock { $0.dispatchContext = context }
    }

    func carryBeforeSharing(capturedBy capture: () -> (any Sendable)?) {
        if Value.self == Void.self {
            Unsafe.downcast(self, to: PromiseCore<Void>.self).withUnsafeMutablePointerToHeader { header in
                guard let value = capture() else { return }
                header.pointee.dispatchContext = CapturedContext(consume value)
            }
            return
        }
        withUnsafeMutablePointerToHeader { header in
            guard let value = capture() else { return }
            header.pointee.dispatchContext = CapturedContext(consume value)
        }
    }

    func carryBeforeSharing(_ context: consuming CapturedContext?) {
        // Nothing else can reach the storage yet: the write needs no lock.
        let given = consume context
        if Value.self == Void.self {
            Unsafe.downcast(self, to: PromiseCore<Void>.self).withUnsafeMutablePointerToHeader { $0.pointee.dispatchContext = given }
            return
        }
        withUnsafeMutablePointerToHeader { $0.pointee.dispatchContext = given }
    }

    var isPending: Bool {
        if Value.self == Void.self {
            // Asked once per async side effect, whose promise is most often a `Promise<Void>`.
            return Promise<Void>(core: Unsafe.downcast(self, to: PromiseCore<Void>.self)).isPending
        }
        return Promise(core: self).isPending
    }

    func cancel(with error: any Error) -> Bool {
        Promise(core: self).cancel(with: error)
    }
}
