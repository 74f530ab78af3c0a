import Katana

/// `duration` in seconds with six decimals ("0.000123"), rounded to the nearest microsecond;
/// written by hand to stay away from Foundation's formatters on the store's queue.
func secondsWithMicroseconds(_ duration: Duration) -> String {
    let (wholeSeconds, attoseconds) = duration.components
    guard wholeSeconds >= 0, attoseconds >= 0 else { return "0.000000" }
    var seconds = wholeSeconds
    var microseconds = (attoseconds + 500_000_000_000) / 1_000_000_000_000
    if microseconds == 1_000_000 {
        seconds += 1
        microseconds = 0
    }
    let fraction = String(microseconds)
    return "\(seconds)." + String(repeating: "0", count: 6 - fraction.count) + fraction
}
