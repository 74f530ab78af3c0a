@testable import Katana
import Testing
import KatanaTestSupport

/// The registry's counts (per phase, and the workers' demand) agree with its slots after every
/// step of long random sequences of what the store does to it: add, take, start and attach
/// tasks, end, cancel by promise, by id and for a shutdown, announced waits and monitor ticks.
@Suite struct SideEffectRegistryInvariantTests {
    private final class Entry: RegisteredSideEffect {
        let order: UInt64
        let itemType: any Dispatchable.Type = Item.self
        let identity: SideEffectIdentity?
        let promise: PromiseHandle? = nil
        let isAsync: Bool
        let startsTaskWhenTaken: Bool
        private(set) var cancellation: SideEffectEnd.Canceller?

        init(order: UInt64, id: Int?, latestWins: Bool, isAsync: Bool, startsTask: Bool) {
            self.order = order
            identity = id.map { SideEffectIdentity(id: SideEffectID($0), cancelsInFlight: latestWins) }
            self.isAsync = isAsync
            startsTaskWhenTaken = startsTask
        }

        func recordCancellation(_ canceller: SideEffectEnd.Canceller) {
            cancellation = canceller
        }
    }

    private struct Item: Dispatchable {}

    /// What the workers of the sequence hold: a job on a worker, or one whose task started.
    private struct Held {
        var onWorker: [(token: SideEffectRegistry<Entry>.Token, worker: Int32)] = []
        var tasks: [SideEffectRegistry<Entry>.Token] = []
        var announced: [Int32] = []
        /// Workers that asked for one more and have not begun.
        var asked = 0
    }

    @Test(arguments: 0 ..< 40 as Range<UInt64>)
    func randomSequences_keepTheCountsInAgreementWithTheSlots(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var registry = SideEffectRegistry<Entry>(width: 2)
        var held = Held()
        var order: UInt64 = 0
        let task = Task<Void, Never> {}
        for step in 0 ..< 600 {
            let action = Int.random(in: 0 ..< 12, using: &random)
            switch action {
            case 0, 1, 2:
                let added = registry.add(Entry(
                    order: order, id: Bool.random(using: &random) ? Int.random(in: 0 ..< 3, using: &random) : nil,
                    latestWins: Bool.random(using: &random), isAsync: Bool.random(using: &random), startsTask: Bool.random(using: &random)
                ))
                order += 1
                if added.startsWorker { held.asked += 1 }
            case 3 where held.asked > 0:
                held.asked -= 1
                registry.workerBegins()
                if let taken = registry.take(onThread: Int32(step)) {
                    held.onWorker.append((taken.token, Int32(step)))
                    if taken.startsWorker { held.asked += 1 }
                }
            case 4 where !held.onWorker.isEmpty:
                // A synchronous body ends; its worker settles it and looks for the next job.
                let (token, worker) = held.onWorker.removeFirst()
                registry.end(token)
                if let next = registry.finishJobAndTakeNext(onThread: worker) {
                    held.onWorker.append((next.token, worker))
                    if next.startsWorker { held.asked += 1 }
                }
            case 5 where !held.onWorker.isEmpty:
                // An async job's task starts: its handle arrives, and its worker moves on.
                let (token, worker) = held.onWorker.removeLast()
                if registry.startTask(token) == nil {
                    _ = registry.attach(task, to: token)
                    held.tasks.append(token)
                }
                if let next = registry.finishJobAndTakeNext(onThread: worker) {
                    held.onWorker.append((next.token, worker))
                }
            case 6 where !held.tasks.isEmpty:
                let token = held.tasks.remove(at: Int.random(in: 0 ..< held.tasks.count, using: &random))
                registry.endTask(token)
                registry.taskSettled()
            case 7:
                _ = registry.cancel(id: SideEffectID(Int.random(in: 0 ..< 3, using: &random)), before: order, leavingCut: Bool.random(using: &random))
            case 8 where !held.onWorker.isEmpty:
                let worker = held.onWorker[Int.random(in: 0 ..< held.onWorker.count, using: &random)].worker
                held.asked += registry.waitBegan(onWorker: worker)
                held.announced.append(worker)
            case 9 where !held.announced.isEmpty:
                registry.waitEnded(onWorker: held.announced.removeFirst())
            case 10:
                held.asked += registry.monitorTick { _ in Bool.random(using: &random) ? nil : true }.startsWorkers
            case 11 where step > 400:
                registry.beginShutdown()
                _ = registry.cancelForShutdown()
            default:
                break
            }
            let problems = registry.invariantViolations()
            #expect(problems.isEmpty, "seed \(seed), step \(step), action \(action): \(problems)")
            if !problems.isEmpty { return }
        }
    }
}
