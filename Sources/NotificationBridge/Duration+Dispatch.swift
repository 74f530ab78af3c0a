import Dispatch

extension Duration {
    /// The duration as a dispatch interval in whole nanoseconds, rounded up so that a tiny
    /// positive duration stays positive, and capped at the largest interval dispatch can hold.
    /// Negative durations become zero; callers validate before converting.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds > 0 || attoseconds > 0 else { return .nanoseconds(0) }
        let attosecondsPerNanosecond: Int64 = 1_000_000_000
        let (wholeSecondsInNanoseconds, overflowed) = seconds.multipliedReportingOverflow(
            by: 1_000_000_000)
        if overflowed {
            return .nanoseconds(Int(Int64.max))
        }
        let partialNanoseconds =
            (attoseconds + attosecondsPerNanosecond - 1) / attosecondsPerNanosecond
        let (total, sumOverflowed) = wholeSecondsInNanoseconds.addingReportingOverflow(
            partialNanoseconds)
        return .nanoseconds(Int(sumOverflowed ? Int64.max : total))
    }
}
