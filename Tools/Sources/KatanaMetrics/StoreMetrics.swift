import Katana
import KatanaToolsSupport
import Metrics

/// An interceptor that reports the store's work through swift-metrics: items per type and outcome,
/// how long updaters and synchronous side effects take, and how much work the store has.
///
/// ```swift
/// let store = Store<AppState, AppDependencies>(interceptors: Interceptors {
///     StoreMetrics(dimensions: [("store", "orders")])
/// })
/// ```
///
/// What it reports, with `prefix` before each name and the given `dimensions` on every metric:
/// - counter `<prefix>_items`, dimensions `type`, `kind` and `outcome` (`handled`, `blocked`,
///   `rejected`): one per item that reached this interceptor;
/// - timer `<prefix>_updater_duration`, dimension `type`: how long `next` took for a handled state
///   updater (the later interceptors and applying it);
/// - timer `<prefix>_side_effect_duration`, dimension `type`: the same for a handled synchronous
///   side effect, whose body `next` runs on its worker;
/// - timer `<prefix>_async_side_effect_duration`, dimensions `type` and `outcome` (`succeeded`,
///   `failed`, `cancelled`): how long an `AsyncSideEffect`'s whole task ran, from its body's start
///   to its end (the store's ``SideEffectEnd``); one cancelled before its body began is not timed;
/// - gauges `<prefix>_waiting_items` and `<prefix>_active_side_effects`: the store's
///   ``StoreLoad``, read when the store starts and then after an item, at most once a
///   `gaugeInterval`.
///
/// An `AsyncSideEffect`'s task starts after the interceptors return, so `next` covers none of its
/// body: it is timed from its end instead, which the store reports when its task ends.
///
/// Each store starts its own copy, with metric handles of its own; two stores that report under
/// the same prefix should be told apart by a dimension. The handles for an item type and outcome
/// are made the first time they are needed and kept: after that an item costs two clock reads and
/// one dictionary look-up under a lock, besides what the metrics backend does.
public struct StoreMetrics: Interceptor {
    private let prefix: String
    private let dimensions: [(String, String)]
    private let gaugeInterval: Duration
    private let factory: (any MetricsFactory)?
    /// This store's handles, made by ``start(in:)``; nil in a copy that has not been started.
    private var registry: MetricsRegistry?

    /// Metrics named `<prefix>_...`, with `dimensions` added to every one, gauges sampled at most
    /// once every `gaugeInterval`, made by `factory` (nil: the factory `MetricsSystem` was
    /// bootstrapped with, as of when the store starts).
    public init(
        prefix: String = "katana",
        dimensions: [(String, String)] = [],
        gaugeInterval: Duration = .seconds(1),
        factory: (any MetricsFactory)? = nil
    ) {
        self.prefix = prefix
        self.dimensions = dimensions
        self.gaugeInterval = gaugeInterval
        self.factory = factory
    }

    /// Makes this store's gauges and reads its load for the first time.
    public mutating func start(in context: any AnySideEffectContext) {
        let registry = MetricsRegistry(
            prefix: prefix,
            dimensions: dimensions,
            gaugeInterval: gaugeInterval,
            factory: factory ?? MetricsSystem.factory,
            readLoad: { context.storeLoad }
        )
        registry.sampleLoad()
        context.observeSideEffectEnds { end in registry.recordEnd(end) }
        self.registry = registry
    }

    /// Passes `item` on, timing the rest of the chain, then counts it (and times it, for an updater
    /// or a synchronous side effect); rethrows what a later interceptor throws.
    public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        guard let registry else {
            try next(item)
            return
        }
        let start = ContinuousClock.now
        do {
            try next(item)
        } catch {
            let end = ContinuousClock.now
            // Thrown after the item was passed on: the store handled it, and so does the count.
            let outcome = ItemOutcome.afterThrow
            registry.record(item, outcome, took: start.duration(to: end), endingAt: end)
            throw error
        }
        let end = ContinuousClock.now
        let outcome = ItemOutcome.afterNext
        registry.record(item, outcome, took: start.duration(to: end), endingAt: end)
    }
}
