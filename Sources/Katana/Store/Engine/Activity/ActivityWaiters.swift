/// The tasks waiting for a store's activity to change, as a plain value (tested without threads in
/// `ActivityWaitersTests`); ``ActivitySignal`` keeps one behind a lock and resumes what its
/// methods return once it has let go of the lock.
///
/// A waiter first reads ``generation``, then looks at the store; if the store is still busy it
/// registers with the generation it read. A poke in between has moved the generation on, so the
/// registration hands the waiter straight back: no wake-up is lost between the look and the wait.
struct ActivityWaiters<Waiter> {
    /// How many pokes there have been (wrapping).
    private(set) var generation: UInt64 = 0
    /// The registered waiters, oldest first.
    private var waiting: [(id: UInt64, waiter: Waiter)] = []
    /// Ids withdrawn before their waiter registered (a cancellation that came first).
    private var withdrawnEarly: [UInt64] = []
    private var lastID: UInt64 = 0

    /// How many waiters are registered.
    var count: Int {
        waiting.count
    }

    /// A new id for ``register(_:id:after:)`` and ``withdraw(_:)``.
    mutating func makeID() -> UInt64 {
        lastID &+= 1
        return lastID
    }

    /// A waiter that read `seen` as the generation, and found the store busy, waits for the next
    /// poke. Returns the waiter when it must be resumed at once instead: a poke came after it read
    /// the generation, or its id was withdrawn already.
    mutating func register(_ waiter: Waiter, id: UInt64, after seen: UInt64) -> Waiter? {
        if let early = withdrawnEarly.firstIndex(of: id) {
            withdrawnEarly.remove(at: early)
            return waiter
        }
        guard generation == seen else { return waiter }
        waiting.append((id, waiter))
        return nil
    }

    /// Something in the store changed: every registered waiter is handed back, to be resumed.
    mutating func poke() -> [Waiter] {
        generation &+= 1
        guard !waiting.isEmpty else { return [] }
        defer { waiting.removeAll(keepingCapacity: true) }
        return waiting.map(\.waiter)
    }

    /// The waiter with this id stops waiting (its deadline passed, or its task was cancelled):
    /// returns it, to be resumed, if it is still registered. An id that has not registered yet is
    /// remembered until ``forget(_:)``, and its registration hands the waiter straight back.
    mutating func withdraw(_ id: UInt64) -> Waiter? {
        if let index = waiting.firstIndex(where: { $0.id == id }) {
            return waiting.remove(at: index).waiter
        }
        if !withdrawnEarly.contains(id) {
            withdrawnEarly.append(id)
        }
        return nil
    }

    /// The wait with this id is over and nothing will withdraw it any more (its timer is
    /// cancelled): a withdrawal that came too late to find it registered is forgotten.
    mutating func forget(_ id: UInt64) {
        withdrawnEarly.removeAll { $0 == id }
    }
}
