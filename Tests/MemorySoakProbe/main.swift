import Dispatch
import Foundation
import Katana
import KatanaTestSupport

// The memory soak in a process of its own, run by `MemorySoakTests` (ReliabilityTests): the
// resident set is the whole process's, and in the test process every other test allocates too.
// Dispatches a warm-up, takes the resident set as the baseline, then dispatches the soak in chunks
// and prints the growth over the baseline after every tenth of it and at the end, in one line:
//   MEMORY-SOAK baseline=<KiB> growth=<KiB>,<KiB>,… final-state=<seq>/<total> heard=<count>
// Usage: katana-memory-soak-probe [warm-up] [soak] [chunk]   (defaults 100000 1000000 10000)
// Exits 1, saying why on standard error, if a chunk or the listener does not finish in 10 minutes.

struct SoakState: State, Equatable {
    var seq = 0
    var total = 0
}

struct AddOne: StateUpdater {
    func updateState(_ state: inout SoakState) {
        state.seq += 1
        state.total += 1
    }
}

func residentSetKiB() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.dropFirst("VmRSS:".count).filter(\.isNumber))
    }
    return nil
}

/// The resident set now, or the end of the run if it cannot be read.
func residentSetOrFail() -> Int {
    guard let kib = residentSetKiB() else { fail("cannot read VmRSS from /proc/self/status") }
    return kib
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("katana-memory-soak-probe: \(message)\n".utf8))
    exit(1)
}

let numbers = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let warmUp = numbers.count > 0 ? numbers[0] : 100_000
let soak = numbers.count > 1 ? numbers[1] : 1_000_000
let chunk = numbers.count > 2 ? numbers[2] : 10_000
guard warmUp >= 0, soak >= 10, chunk > 0, soak.isMultiple(of: 10), (soak / 10).isMultiple(of: chunk) else {
    fail("expected [warm-up ≥ 0] [soak, a multiple of 10 ≥ 10] [chunk dividing a tenth of the soak]; got \(numbers)")
}
let timeout: Duration = .seconds(600)

let store = Store<SoakState, EmptySideEffectDependencyContainer>(
    interceptors: [],
    stateInitializer: { SoakState() },
    configuration: .init(listenersAsyncProvider: DispatchQueue(label: "katana-memory-soak-probe.listeners"))
)
/// Listener calls, counted on the store's listener queue.
let heard = LockedValue(0)
store.addListener { _, _ in heard.withLock { $0 += 1 } }

func dispatch(_ count: Int) {
    var dispatched = 0
    while dispatched < count {
        var last: Promise<Void>?
        for _ in 0..<min(chunk, count - dispatched) {
            last = store.dispatch(AddOne())
        }
        // Updaters settle in order: the chunk's last one settling means the chunk is done.
        do {
            try last?.wait(timeout: timeout)
        } catch {
            fail("a chunk ending at dispatch \(dispatched + chunk) did not settle: \(error)")
        }
        dispatched += chunk
    }
}

/// Suspends until the listener has heard `expected` changes, woken each time the store's listener
/// queue runs out of work.
func waitForListener(_ expected: Int) async {
    do {
        try await store.waitUntil("the listener to hear \(expected) changes", timeout: timeout) { heard.value >= expected }
    } catch {
        fail("the listener heard \(heard.value) of \(expected) changes: \(error)")
    }
}

dispatch(warmUp)
await waitForListener(warmUp)
let baseline = residentSetOrFail()
var growth: [Int] = []
for _ in 0..<10 {
    dispatch(soak / 10)
    growth.append(residentSetOrFail() - baseline)
}
await waitForListener(warmUp + soak)
growth.append(residentSetOrFail() - baseline)
let state = store.state
print("MEMORY-SOAK baseline=\(baseline) growth=\(growth.map(String.init).joined(separator: ",")) final-state=\(state.seq)/\(state.total) heard=\(heard.value)")
