/// How a test store's recording wakes the test store's own waits (settling, receiving) when it
/// changes the log: a link to the store's `pokeActivity()`, made before the store exists (the
/// recorder is one of the interceptors the store is made with) and connected right after.
///
/// A poke before ``connect(_:)`` is dropped, and loses nothing: the waits are the test store's
/// methods, which no test can call before the test store's initialiser has connected the link.
final class ActivityPoke: Sendable {
    // Set once by the test store's initialiser and read by the recorder on the store's threads:
    // guarded by its own lock, never held while the poke runs.
    private let target = LockedValue<(@Sendable () -> Void)?>(nil)

    /// Makes ``poke()`` call `poke` from now on.
    func connect(_ poke: @escaping @Sendable () -> Void) {
        target.withLock { $0 = poke }
    }

    /// Wakes the test store's waits to look at the log again; call it after the change, with the
    /// log's lock let go.
    func poke() {
        target.withLock { $0 }?()
    }
}
