extension TestClock {
    /// A moment on a ``TestClock``: the time since the clock was made.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// The time since the clock was made.
        public var offset: Duration

        /// The moment `offset` after the clock was made.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The moment `duration` after this one.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this moment to `other` (negative when `other` is earlier).
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// `+3.0 seconds`: the time since the clock was made.
        public var description: String {
            "+\(offset)"
        }
    }
}
