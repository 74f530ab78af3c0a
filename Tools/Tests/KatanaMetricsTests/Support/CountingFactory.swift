import Foundation
import Metrics
import MetricsTestKit

/// A metrics factory that counts the handles it is asked for, and has `TestMetrics` make them.
final class CountingFactory: MetricsFactory, @unchecked Sendable {
    // @unchecked: `made` is only touched with `lock` held; `metrics` is Sendable.
    private let lock = NSLock()
    private var made = 0
    let metrics = TestMetrics()

    /// How many handles have been made so far.
    var handlesMade: Int {
        lock.withLock { made }
    }

    private func count() {
        lock.withLock { made += 1 }
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
