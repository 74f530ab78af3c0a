import class Foundation.NSLock
import Katana
import KatanaToolsSupport
import Metrics

/// One store's metric handles: the gauges, made when the store starts, and a counter per item type
/// and outcome and a timer per item type, made the first time an item needs them and kept.
///
/// Lock: `lock` guards `types` and `nextSample`; nothing else changes. It is never held while a
/// metric records or while the store's load is read, so it nests inside no other lock.
// @unchecked: the two mutable properties are only touched with `lock` held; the rest are constants,
// and swift-metrics handles are safe to use from any thread.
final class MetricsRegistry: @unchecked Sendable {
    private let lock = NSLock()
    /// The handles of each item type seen so far. Guarded by `lock`.
    private var types: [ObjectIdentifier: TypeMetrics] = [:]
    /// The async side effects' timers, per type and outcome. Guarded by `lock`.
    private var asyncTimers: [AsyncTimerKey: CoreMetrics.Timer] = [:]
    /// When the next item may read the load for the gauges. Guarded by `lock`.
    private var nextSample: ContinuousClock.Instant

    private let labels: Labels
    private let dimensions: [(String, String)]
    private let gaugeInterval: Duration
    private let factory: any MetricsFactory
    private let waitingItems: Gauge
    private let activeSideEffects: Gauge
    /// The store's load; nil once the store is gone.
    private let readLoad: @Sendable () -> StoreLoad?

    init(
        prefix: String,
        dimensions: [(String, String)],
        gaugeInterval: Duration,
        factory: any MetricsFactory,
        readLoad: @escaping @Sendable () -> StoreLoad?
    ) {
        labels = Labels(prefix: prefix)
        self.dimensions = dimensions
        self.gaugeInterval = gaugeInterval
        self.factory = factory
        self.readLoad = readLoad
        waitingItems = Gauge(label: labels.waitingItems, dimensions: dimensions, factory: factory)
        activeSideEffects = Gauge(label: labels.activeSideEffects, dimensions: dimensions, factory: factory)
        nextSample = ContinuousClock.now.advanced(by: gaugeInterval)
    }

    /// Counts `item` with its outcome, times it when it is a handled updater or synchronous side
    /// effect, and samples the load when `end` is at or past the next sampling time.
    func record(_ item: any Dispatchable, _ outcome: ItemOutcome, took duration: Duration, endingAt end: ContinuousClock.Instant) {
        lock.lock()
        let handles = handlesLocked(for: item, outcome)
        let samples = end >= nextSample
        if samples {
            nextSample = end.advanced(by: gaugeInterval)
        }
        lock.unlock()

        handles.counter.increment()
        if outcome == .handled, let timer = handles.timer {
            timer.record(duration: duration)
        }
        if samples {
            sampleLoad()
        }
    }

    /// Times an async side effect's whole task, from its end; ignores other kinds (timed by
    /// ``record(_:_:took:endingAt:)``) and one whose body never began.
    func recordEnd(_ end: SideEffectEnd) {
        guard end.began, end.item is any AsyncSideEffect else { return }
        let outcome =
            switch end.outcome {
            case .succeeded: "succeeded"
            case .failed: "failed"
            case .cancelled: "cancelled"
            }
        let key = AsyncTimerKey(type: ObjectIdentifier(type(of: end.item)), outcome: outcome)
        lock.lock()
        let timer: CoreMetrics.Timer
        if let made = asyncTimers[key] {
            timer = made
        } else {
            let dimensions = [("type", String(reflecting: type(of: end.item))), ("outcome", outcome)] + self.dimensions
            timer = CoreMetrics.Timer(label: labels.asyncSideEffectDuration, dimensions: dimensions, factory: factory)
            asyncTimers[key] = timer
        }
        lock.unlock()
        timer.record(duration: end.duration)
    }

    /// Reads the store's load into the two gauges; does nothing once the store is gone.
    func sampleLoad() {
        guard let load = readLoad() else { return }
        waitingItems.record(load.waitingItems)
        activeSideEffects.record(load.activeSideEffects)
    }

    /// The counter for `item`'s type and `outcome`, and the type's timer; with `lock` held.
    private func handlesLocked(for item: any Dispatchable, _ outcome: ItemOutcome) -> (counter: Counter, timer: CoreMetrics.Timer?) {
        let key = ObjectIdentifier(type(of: item))
        if let metrics = types[key], let counter = metrics[outcome] {
            return (counter, metrics.timer)
        }
        // The first item of this type, or of this outcome for it: the only calls to the factory.
        var metrics = types[key] ?? makeTypeMetrics(for: item)
        let counter = Counter(
            label: labels.items,
            dimensions: [("type", metrics.typeName), ("kind", metrics.kind.rawValue), ("outcome", outcome.rawValue)] + dimensions,
            factory: factory
        )
        metrics[outcome] = counter
        types[key] = metrics
        return (counter, metrics.timer)
    }

    /// The kind, name and timer of `item`'s type, with no counter yet.
    private func makeTypeMetrics(for item: any Dispatchable) -> TypeMetrics {
        let typeName = String(reflecting: type(of: item))
        let kind = ItemKind(of: item)
        let timerLabel: String? =
            switch kind {
            case .updater: labels.updaterDuration
            case .sideEffect: labels.sideEffectDuration
            // Not timed: an async side effect's body runs after the interceptors have returned.
            case .asyncSideEffect, .other: nil
            }
        let timer = timerLabel.map { CoreMetrics.Timer(label: $0, dimensions: [("type", typeName)] + dimensions, factory: factory) }
        return TypeMetrics(typeName: typeName, kind: kind, timer: timer)
    }
}

extension MetricsRegistry {
    /// The metric names for one prefix.
    struct Labels {
        let items: String
        let updaterDuration: String
        let sideEffectDuration: String
        let asyncSideEffectDuration: String
        let waitingItems: String
        let activeSideEffects: String

        init(prefix: String) {
            items = prefix + "_items"
            updaterDuration = prefix + "_updater_duration"
            sideEffectDuration = prefix + "_side_effect_duration"
            asyncSideEffectDuration = prefix + "_async_side_effect_duration"
            waitingItems = prefix + "_waiting_items"
            activeSideEffects = prefix + "_active_side_effects"
        }
    }

    /// An async side effect's type and how it ended.
    struct AsyncTimerKey: Hashable {
        let type: ObjectIdentifier
        let outcome: String
    }

    /// The handles of one item type: a counter per outcome seen so far, and a timer for the kinds
    /// that are timed.
    struct TypeMetrics {
        let typeName: String
        let kind: ItemKind
        let timer: CoreMetrics.Timer?
        private var handled: Counter?
        private var blocked: Counter?
        private var rejected: Counter?

        init(typeName: String, kind: ItemKind, timer: CoreMetrics.Timer?) {
            self.typeName = typeName
            self.kind = kind
            self.timer = timer
        }

        /// The counter for `outcome`, once made.
        subscript(outcome: ItemOutcome) -> Counter? {
            get {
                switch outcome {
                case .handled: handled
                case .blocked: blocked
                case .rejected: rejected
                }
            }
            set {
                switch outcome {
                case .handled: handled = newValue
                case .blocked: blocked = newValue
                case .rejected: rejected = newValue
                }
            }
        }
    }
}
