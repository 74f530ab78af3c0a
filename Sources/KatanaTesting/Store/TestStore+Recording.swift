import Foundation
import Katana

extension TestStore {
    /// The interceptor that records every item: first in the chain, so it sees each item the store
    /// is given (sent by the test or dispatched by the store's own work) before any other
    /// interceptor can replace or block it, with the state before and after. Whether the item got
    /// past the app's interceptors is told by ``ArrivalMarker``, last in the chain. Each change to
    /// the log pokes `activity`, so a test store waiting for an item wakes.
    struct Recorder: Interceptor {
        let log: LockedValue<HandledLog<S>>
        let activity: ActivityPoke
        /// The store's context, once it starts.
        private var context: (any AnySideEffectContext)?

        init(log: LockedValue<HandledLog<S>>, activity: ActivityPoke) {
            self.log = log
            self.activity = activity
        }

        mutating func start(in context: any AnySideEffectContext) {
            self.context = context
        }

        func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            guard let context, let before = context.getAnyState() as? S else {
                try next(item)
                return
            }
            let index = log.withLock { $0.begin(item, stateBefore: before) }
            activity.poke()
            do {
                try RecordingThread.withCurrentItem(index, readingState: { context.getAnyState() }) {
                    try next(item)
                }
            } catch {
                log.withLock { $0.end(index, stateAfter: context.getAnyState() as? S, outcome: .rejected("\(error)")) }
                activity.poke()
                throw error
            }
            let after = context.getAnyState() as? S
            log.withLock { $0.end(index, stateAfter: after, outcome: $0.hasArrived(index) ? .handled : .blocked) }
            activity.poke()
        }
    }

    /// The interceptor last in the chain: an item that reaches it got past every interceptor of
    /// the app's, so the store handles it (or what an interceptor replaced it with).
    struct ArrivalMarker: Interceptor {
        let log: LockedValue<HandledLog<S>>

        func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            if let index = RecordingThread.currentItem {
                log.withLock { $0.arrived(index) }
            }
            try next(item)
        }
    }

    /// Starts each async side effect's task on the clock's executor (where the platform has task
    /// executors), and records while its body runs (poking `activity` when that changes).
    static func taskStarter(log: LockedValue<HandledLog<S>>, clock: TestClock, activity: ActivityPoke) -> AsyncSideEffectTaskStarter {
        { operation in
            // The store starts the task inside the recording interceptor's `next`, on its thread.
            let index = RecordingThread.currentItem
            if let index {
                // The item's state after is the state as its task starts: what the task dispatches
                // from now on is received on its own, and may be handled before `next` returns.
                let stateAtStart = RecordingThread.currentState() as? S
                log.withLock { $0.sideEffectTask(index, isRunning: true, stateAtStart: stateAtStart) }
                activity.poke()
            }
            let body: @Sendable () async -> Void = {
                await operation()
                if let index {
                    log.withLock { $0.sideEffectTask(index, isRunning: false, stateAtStart: nil) }
                    activity.poke()
                }
            }
            if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                // Held until the task runs, so a test store settling right now waits for its first steps.
                let starting = clock.beginActivity()
                return Task(executorPreference: clock.executor) {
                    starting.end()
                    await body()
                }
            }
            return Task { await body() }
        }
    }
}

/// The item the recording interceptor is passing on, on this thread: how the task starter, called
/// by the store inside that `next`, knows which item's task it starts, and reads the state then.
enum RecordingThread {
    private static let key = "KatanaTesting.RecordingThread.currentItem"

    /// What the recording interceptor leaves for the task starter.
    private final class CurrentItem: NSObject {
        let index: Int
        let readState: () -> Any?

        init(index: Int, readState: @escaping () -> Any?) {
            self.index = index
            self.readState = readState
        }
    }

    private static var current: CurrentItem? {
        Thread.current.threadDictionary[key] as? CurrentItem
    }

    /// The index of the item being passed on by this thread, if any.
    static var currentItem: Int? {
        current?.index
    }

    /// The store's state now, read through the context of the item being passed on by this thread.
    static func currentState() -> Any? {
        current?.readState()
    }

    /// Runs `body` with `index` as this thread's current item (the previous one is restored);
    /// `readingState` reads the store's state while it is current.
    static func withCurrentItem<Result>(_ index: Int, readingState: @escaping () -> Any?, _ body: () throws -> Result) rethrows -> Result {
        let dictionary = Thread.current.threadDictionary
        let previous = dictionary[key]
        dictionary[key] = CurrentItem(index: index, readState: readingState)
        defer { dictionary[key] = previous }
        return try body()
    }
}
