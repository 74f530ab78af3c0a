extension TestClock {
    /// Holds the clock busy until the returned activity ends, so advances wait for work the clock
    /// cannot see (an operation on another thread that a task on the clock's executor awaits).
    public func beginActivity() -> Activity {
        storage.update { $0.activityBegan() }
        return Activity(storage: storage)
    }

    /// Work an advance waits for, begun by ``TestClock/beginActivity()``. It ends when ``end()``
    /// is called or when it is released, whichever comes first.
    public final class Activity: Sendable {
        private let storage: TestClockStorage
        // Guarded by its own lock: `end()` may be called from any thread, and only once counts.
        private let ended = LockedValue(false)

        init(storage: TestClockStorage) {
            self.storage = storage
        }

        /// Ends the activity; later calls do nothing.
        public func end() {
            let first = ended.withLock { ended in
                defer { ended = true }
                return !ended
            }
            if first {
                storage.activityEnded()
            }
        }

        deinit {
            end()
        }
    }
}
