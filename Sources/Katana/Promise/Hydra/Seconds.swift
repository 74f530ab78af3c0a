import Dispatch

extension DispatchTime {
    /// The moment `seconds` from now, for the operators that take Hydra's delays in seconds; nil
    /// (never) for a delay that is not a number or longer than about 30 years. Zero or a negative
    /// delay is now.
    static func afterSeconds(_ seconds: Double) -> DispatchTime? {
        if seconds.isNaN || seconds > 1e9 {
            return nil
        }
        guard seconds > 0 else {
            return .now()
        }
        return .now() + .nanoseconds(Int(seconds * 1e9))
    }
}
