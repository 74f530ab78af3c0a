import Dispatch

/// Gives the memory a burst of dispatches freed back to the system, where the allocator would
/// keep it (glibc).
///
/// glibc returns freed memory to the system only from the top of its heap, and the last blocks a
/// thread frees stay in that thread's cache, still counted as in use, so after a burst the
/// megabytes it freed usually stay resident although the store holds none of them
/// (docs/PERFORMANCE.md, "Memory"). Stores report how many items they handled; once a burst's worth
/// has been handled and the reports have stopped for a moment (the burst is over), the process asks
/// the allocator to give its free memory back (`malloc_trim`), on a utility queue, at most once per
/// ``Policy/minimumInterval``.
enum MemoryRelease {
    /// When to release, as a plain value (tested without threads in `MemoryReleasePolicyTests`).
    struct Policy {
        /// What to do after a report.
        enum Report: Equatable {
            case none
            /// Schedule a check after this delay.
            case scheduleCheck(after: Duration)
        }

        /// What a scheduled check does.
        enum Check: Equatable {
            /// Release now (then call ``released(at:)``).
            case release
            /// Check again after this delay: the burst is still going, or a release ran recently.
            case checkAgain(after: Duration)
        }

        /// Items handled by every store since the last release.
        private(set) var itemsSinceRelease = 0
        private var lastReport: ContinuousClock.Instant?
        private var lastRelease: ContinuousClock.Instant?
        private var isScheduled = false

        /// How many handled items make a burst worth a release.
        static var burstSize: Int { 4096 }
        /// How long reports must have stopped before the burst counts as over.
        static var quietPeriod: Duration { .milliseconds(100) }
        /// The shortest time between two releases.
        static var minimumInterval: Duration { .seconds(1) }

        /// A store handled `count` more items at `now`.
        mutating func handled(_ count: Int, at now: ContinuousClock.Instant) -> Report {
            itemsSinceRelease += count
            lastReport = now
            guard !isScheduled, itemsSinceRelease >= Self.burstSize else { return .none }
            isScheduled = true
            return .scheduleCheck(after: Self.quietPeriod)
        }

        /// The scheduled check runs at `now`.
        mutating func check(at now: ContinuousClock.Instant) -> Check {
            if let lastReport, now - lastReport < Self.quietPeriod {
                return .checkAgain(after: Self.quietPeriod - (now - lastReport))
            }
            if let lastRelease, now - lastRelease < Self.minimumInterval {
                return .checkAgain(after: Self.minimumInterval - (now - lastRelease))
            }
            return .release
        }

        /// The release ran at `now`.
        mutating func released(at now: ContinuousClock.Instant) {
            isScheduled = false
            lastRelease = now
            itemsSinceRelease = 0
        }
    }

    private static let policy = Locked(Policy())

    /// Reports that a store handled `count` items; schedules a release once they make a burst.
    static func handled(_ count: Int) {
        guard case .scheduleCheck(let delay) = policy.withLock({ $0.handled(count, at: .now) }) else { return }
        scheduleCheck(after: delay)
    }

    private static func scheduleCheck(after delay: Duration) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay.dispatchInterval) {
            switch policy.withLock({ $0.check(at: .now) }) {
            case .checkAgain(let delay):
                scheduleCheck(after: delay)
            case .release:
                Unsafe.releaseFreedMemory()
                policy.withLock { $0.released(at: .now) }
            }
        }
    }
}
