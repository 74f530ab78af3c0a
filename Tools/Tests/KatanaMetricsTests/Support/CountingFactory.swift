import KatanaTestSupport
import Metrics
import MetricsTestKit

/// A metrics factory that counts the handles it is asked for, and has `TestMetrics` make them.
final class CountingFactory: MetricsFactory, Sendable {
    private let made = LockedValue(0)
    let metrics = TestMetrics()

    /// How many handles have been made so far.
    var handlesMade: Int {
        made.value
    }

    private func count() {
        made.withLock { $0 += 1 }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        count()
        return metrics.makeCounter(label: label, dimensions: dimensions)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        count()
        return metrics.makeMeter(label: label, dimensions: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        count()
        return metrics.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        count()
        return metrics.makeTimer(label: label, dimensions: dimensions)
    }

    func destroyCounter(_ handler: any CounterHandler) { metrics.destroyCounter(handler) }
    func destroyMeter(_ handler: any MeterHandler) { metrics.destroyMeter(handler) }
    func destroyRecorder(_ handler: any RecorderHandler) { metrics.destroyRecorder(handler) }
    func destroyTimer(_ handler: any TimerHandler) { metrics.destroyTimer(handler) }
}
