import Foundation

/// A list that any thread appends to and a test reads, or awaits: ``waitUntil(_:timeout:_:)``
/// suspends until an append makes its condition hold, woken by the append itself (no polling).
///
/// ```swift
/// let lines = LockedList<String>()
/// let store = Store<AppState, AppDependencies>(interceptors: Interceptors { Logger { lines.append($0) } })
/// store.dispatch(Load())
/// let logged = try await lines.waitUntil("two lines") { $0.count == 2 }
/// ```
public final class LockedList<Element: Sendable>: Sendable {
    private struct Waiter {
        let id: UInt64
        let holds: @Sendable ([Element]) -> Bool
        let continuation: CheckedContinuation<[Element], any Error>
    }

    private struct Storage {
        var elements: [Element] = []
        var waiters: [Waiter] = []
        var nextWaiter: UInt64 = 0
        /// Waits that ran out (or were cancelled) before they were registered.
        var expiredEarly: [UInt64: any Error] = [:]
    }

    private let storage = LockedValue(Storage())

    /// An empty list.
    public init() {}

    /// Appends `element`, and wakes the waits whose condition now holds.
    public func append(_ element: Element) {
        let (woken, elements) = storage.withLock { storage -> ([Waiter], [Element]) in
            storage.elements.append(element)
            let elements = storage.elements
            var woken: [Waiter] = []
            storage.waiters.removeAll { waiter in
                guard waiter.holds(elements) else { return false }
                woken.append(waiter)
                return true
            }
            return (woken, elements)
        }
        for waiter in woken {
            waiter.continuation.resume(returning: elements)
        }
    }

    /// The elements so far, in the order appended.
    public var all: [Element] {
        storage.withLock { $0.elements }
    }

    /// How many elements there are.
    public var count: Int {
        storage.withLock { $0.elements.count }
    }

    /// Suspends until `holds` is true of the list (checked now, then after each append); returns
    /// the elements then. Throws ``TimedOut`` after `timeout`, naming `what`.
    @discardableResult
    public func waitUntil(
        _ what: String = "the list's condition", timeout: Duration = defaultTestTimeout, _ holds: @escaping @Sendable ([Element]) -> Bool
    ) async throws -> [Element] {
        let id = storage.withLock { storage in
            storage.nextWaiter += 1
            return storage.nextWaiter
        }
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self?.expire(id, error: TimedOut(waitingFor: what, after: timeout))
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let now: Result<[Element], any Error>? = storage.withLock { storage in
                    if let error = storage.expiredEarly.removeValue(forKey: id) { return .failure(error) }
                    if holds(storage.elements) { return .success(storage.elements) }
                    storage.waiters.append(Waiter(id: id, holds: holds, continuation: continuation))
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            expire(id, error: CancellationError())
        }
    }

    /// Suspends until the list holds at least `count` elements; returns them.
    @discardableResult
    public func waitForCount(_ count: Int, timeout: Duration = defaultTestTimeout) async throws -> [Element] {
        try await waitUntil("\(count) elements", timeout: timeout) { $0.count >= count }
    }

    /// Ends the wait `id` with `error`: now, if it waits, or as it registers, if it has not yet.
    /// A wait that has already returned is not affected (its timer is cancelled first).
    private func expire(_ id: UInt64, error: any Error) {
        let waiter = storage.withLock { storage -> Waiter? in
            guard let index = storage.waiters.firstIndex(where: { $0.id == id }) else {
                storage.expiredEarly[id] = error
                return nil
            }
            return storage.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }
}
