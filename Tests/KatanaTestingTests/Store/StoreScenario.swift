import Katana
import KatanaTesting
import Testing
import XCTest

/// Runs `steps` on a new test store (``makeTestStore(recorder:exhaustivity:interceptors:amount:)``),
/// then finishes it; returns the store and what its recorder caught.
@discardableResult
func finishedTestStore(
    exhaustivity: Exhaustivity = .on,
    interceptors: [StoreInterceptor] = [],
    amount: Int = 41,
    _ steps: (CountingTestStore) async throws -> Void
) async rethrows -> (store: CountingTestStore, recorder: TestFailureRecorder) {
    let recorder = TestFailureRecorder()
    let store = makeTestStore(recorder: recorder, exhaustivity: exhaustivity, interceptors: interceptors, amount: amount)
    try await steps(store)
    await store.finish()
    return (store, recorder)
}

/// A test-store scenario: what a test does with a new store, and exactly what the store reports
/// once finished. The Swift Testing suites run each table of scenarios as a parameterized test,
/// and their XCTest twins run the same tables: both frameworks hold the store to the same reports.
struct StoreScenario: Sendable, CustomTestStringConvertible {
    /// The behaviour, as a sentence.
    let testDescription: String
    var exhaustivity: Exhaustivity = .on
    var interceptors: [StoreInterceptor] = []
    var amount = 41
    /// Every message reported, in order; none when the test store is satisfied.
    var reports: [String] = []
    /// The severity of each report; every one a failure unless given.
    var severities: [TestFailure.Severity]?
    /// The state once finished, where the scenario is about it.
    var finalState: Counting?
    /// Whether the scenario needs task executors (see ``clockExecutorIsAvailable``).
    var needsTheClockExecutor = false
    /// What the test does, given the store and a gate that opens once the store has finished (for
    /// work that must still be running then).
    let steps: @Sendable (CountingTestStore, Gate) async -> Void

    /// What `run()` found, as the frameworks compare it with the scenario.
    struct Outcome: Equatable {
        let reports: [String]
        let severities: [TestFailure.Severity]
        let finalState: Counting?
    }

    /// What the scenario expects.
    var expected: Outcome {
        Outcome(reports: reports, severities: severities ?? reports.map { _ in .failure }, finalState: finalState)
    }

    /// Runs the steps on a new test store, finishes it, then opens the gate.
    func run() async -> Outcome {
        let gate = Gate()
        let (store, recorder) = await finishedTestStore(exhaustivity: exhaustivity, interceptors: interceptors, amount: amount) {
            await steps($0, gate)
        }
        gate.open()
        return Outcome(
            reports: recorder.messages,
            severities: recorder.failures.map(\.severity),
            finalState: finalState == nil ? nil : store.state
        )
    }
}

/// Whether `item` is an `Add` of 2.
@Sendable func isAddOfTwo(_ item: any Dispatchable) -> Bool {
    (item as? Add)?.amount == 2
}

/// The prefix of every report of work left behind.
let leftBehind = "The test ended with work left behind:\n"

/// The part of a report of work left behind that lists one `Add` received and not asserted.
let oneUnassertedAdd = "• 1 received item not asserted with receive:\n    KatanaTestingTests.Add (#1)"

/// The diff reported for `Add(amount: 2)` sent with the expectation of a counter of 3.
let addOfTwoExpectedThreeDiff = """
    State after sending KatanaTestingTests.Add differs from the expectation (− expected, + actual):
      Counting(
    −   counter: 3,
    +   counter: 2,
        log: []
      )
    """

extension StoreScenario {
    /// What `send` checks and reports.
    static let sending: [StoreScenario] = [
        StoreScenario(
            testDescription: "an updater sent with the right expectation passes",
            finalState: Counting(counter: 2, log: ["hi"])
        ) { store, _ in
            await store.send(Add(amount: 2)) { $0.counter = 2 }
            await store.send(Note(text: "hi")) { $0.log = ["hi"] }
        },
        StoreScenario(
            testDescription: "a send without an assertion fails when the state changed",
            reports: [
                """
                State after sending KatanaTestingTests.Add differs from the expectation (− expected, + actual):
                  Counting(
                −   counter: 0,
                +   counter: 2,
                    log: []
                  )
                """,
            ]
        ) { store, _ in
            await store.send(Add(amount: 2))
        },
        StoreScenario(testDescription: "a sync side effect's send checks the state after what it dispatched") { store, _ in
            await store.send(AddNow(amount: 5)) { $0.counter = 5 }
            await store.receive(Add.self) { $0.counter = 5 }
        },
        StoreScenario(
            testDescription: "a sync side effect's send expecting the state before its dispatches fails",
            reports: [
                """
                State after sending KatanaTestingTests.AddNow differs from the expectation (− expected, + actual):
                  Counting(
                −   counter: 0,
                +   counter: 5,
                    log: []
                  )
                """,
            ]
        ) { store, _ in
            await store.send(AddNow(amount: 5))
            await store.receive(Add.self) { $0.counter = 5 }
        },
        StoreScenario(testDescription: "an async side effect that ends without suspending is checked after its dispatches") { store, _ in
            await store.send(LoadAmount(delay: .zero)) { $0.counter = 41 }
            await store.receive(Add.self) { $0.counter = 41 }
        },
        StoreScenario(
            testDescription: "an item an interceptor does not pass on fails as blocked",
            interceptors: [blocking(amount: 99)],
            reports: ["KatanaTestingTests.Add was sent, but an interceptor returned without passing it on, so the store did not handle it."]
        ) { store, _ in
            await store.send(Add(amount: 99))
        },
        StoreScenario(
            testDescription: "an item an interceptor rejects fails as rejected, with the error",
            interceptors: [rejecting(amount: 13)],
            reports: ["KatanaTestingTests.Add was sent, but it was rejected: refused: no 13"],
            finalState: Counting()
        ) { store, _ in
            await store.send(Add(amount: 13))
        },
        StoreScenario(
            testDescription: "a state assertion that throws fails the send with the error and compares nothing",
            reports: ["The state assertion after sending KatanaTestingTests.Add threw: refused: in the assertion"],
            finalState: Counting(counter: 2)
        ) { store, _ in
            await store.send(Add(amount: 2)) { _ in throw Refused(reason: "in the assertion") }
        },
    ]

    /// What `receive` checks and reports.
    static let receiving: [StoreScenario] = [
        StoreScenario(testDescription: "receiving by type passes and checks the state") { store, _ in
            await store.send(NoteThenAdd(text: "a", amount: 2)) {
                $0.counter = 2
                $0.log = ["a"]
            }
            await store.receive(Note.self) { $0.log = ["a"] }
            await store.receive(Add.self) { $0.counter = 2 }
        },
        StoreScenario(testDescription: "receiving by type, then by predicate, passes") { store, _ in
            await store.send(NoteThenAdd(text: "a", amount: 2)) {
                $0.counter = 2
                $0.log = ["a"]
            }
            await store.receive(Note.self) { $0.log = ["a"] }
            await store.receive("an Add of 2", where: isAddOfTwo) { $0.counter = 2 }
        },
        StoreScenario(testDescription: "receiving by predicate passes when the predicate accepts") { store, _ in
            await store.send(AddNow(amount: 2)) { $0.counter = 2 }
            await store.receive("an Add of 2", where: isAddOfTwo) { $0.counter = 2 }
        },
        StoreScenario(
            testDescription: "receiving with the wrong state fails with a diff",
            reports: [
                """
                State after receiving KatanaTestingTests.Add differs from the expectation (− expected, + actual):
                  Counting(
                −   counter: 3,
                +   counter: 2,
                    log: []
                  )
                """,
            ]
        ) { store, _ in
            await store.send(AddNow(amount: 2)) { $0.counter = 2 }
            await store.receive(Add.self) { $0.counter = 3 }
        },
        StoreScenario(
            testDescription: "a state assertion that throws fails the receive with the error",
            reports: ["The state assertion after receiving KatanaTestingTests.Add threw: refused: while receiving"]
        ) { store, _ in
            await store.send(AddNow(amount: 2)) { $0.counter = 2 }
            await store.receive(Add.self) { _ in throw Refused(reason: "while receiving") }
        },
        StoreScenario(
            testDescription: "a receive without a timeout waits for the store's timeout",
            reports: ["Expected to receive anything within 0.03 seconds, but the store handled nothing more on its own (nothing is running now)."]
        ) { store, _ in
            store.timeout = .milliseconds(30)
            await store.receive("anything", where: { _ in true })
        },
        StoreScenario(
            testDescription: "a receive timing out while a side effect runs says what is running",
            reports: [
                "Expected to receive KatanaTestingTests.Add within 0.05 seconds, but the store handled nothing more on its own (1 async side effect running or suspended).",
            ]
        ) { store, _ in
            let gate = Gate()
            await store.send(AwaitGate(gate: gate))
            await store.receive(Add.self, timeout: .milliseconds(50))
            gate.open()
            await store.receive(Add.self) { $0.counter = 1 }
        },
        StoreScenario(testDescription: "when not exhaustive, receive skips other items silently", exhaustivity: .off) { store, _ in
            await store.send(NoteThenAdd(text: "a", amount: 2)) { $0.counter = 2 }
            await store.receive(Add.self) { $0.counter = 2 }
        },
        StoreScenario(
            testDescription: "when showing skipped items, receive notes each item it skips",
            exhaustivity: .off(showSkipped: true),
            reports: ["Skipped the received KatanaTestingTests.Note (#1) while waiting to receive KatanaTestingTests.Add."],
            severities: [.note]
        ) { store, _ in
            await store.send(NoteThenAdd(text: "a", amount: 2)) { $0.counter = 2 }
            await store.receive(Add.self) { $0.counter = 2 }
        },
        StoreScenario(
            testDescription: "when not exhaustive and no item matches, receive skips them all, then times out",
            exhaustivity: .off(showSkipped: true),
            reports: [
                "Skipped the received KatanaTestingTests.Add (#1) while waiting to receive KatanaTestingTests.Note.",
                "Expected to receive KatanaTestingTests.Note within 0.02 seconds, but the store handled nothing more on its own (nothing is running now).",
            ],
            severities: [.note, .failure]
        ) { store, _ in
            await store.send(AddNow(amount: 1)) { $0.counter = 1 }
            await store.receive(Note.self, timeout: .milliseconds(20))
        },
    ]
}

extension StoreScenario {
    /// What `finish()` reports of the work a test left behind.
    static let finishing: [StoreScenario] = [
        StoreScenario(testDescription: "finish after a clean test reports nothing") { store, _ in
            await store.send(AddNow(amount: 1)) { $0.counter = 1 }
            await store.receive(Add.self) { $0.counter = 1 }
        },
        StoreScenario(
            testDescription: "finish with two unasserted received items says items, in the plural, in order",
            reports: [leftBehind + "• 2 received items not asserted with receive:\n    KatanaTestingTests.Note (#1)\n    KatanaTestingTests.Add (#2)"]
        ) { store, _ in
            await store.send(NoteThenAdd(text: "a", amount: 2)) {
                $0.counter = 2
                $0.log = ["a"]
            }
        },
        StoreScenario(testDescription: "when not exhaustive, finish says nothing about unasserted items", exhaustivity: .off) { store, _ in
            await store.send(NoteThenAdd(text: "a", amount: 2)) { $0.counter = 2 }
        },
        StoreScenario(
            testDescription: "when showing skipped items, finish notes unasserted items without failing",
            exhaustivity: .off(showSkipped: true),
            reports: [
                "Skipped the received KatanaTestingTests.Note (#1): no receive asserted it.",
                "Skipped the received KatanaTestingTests.Add (#2): no receive asserted it.",
            ],
            severities: [.note, .note]
        ) { store, _ in
            await store.send(NoteThenAdd(text: "a", amount: 2)) { $0.counter = 2 }
        },
        StoreScenario(
            testDescription: "finish with a received side effect awaiting something outside reports it still running",
            reports: [leftBehind + "• 1 side effect still running:\n    KatanaTestingTests.AwaitGate (#1)"]
        ) { store, gate in
            await store.send(LaunchGateWait(gate: gate))
            await store.receive(AwaitGate.self)
        },
        StoreScenario(
            testDescription: "finish after a listener threw reports each call",
            reports: [leftBehind + "• 2 listener calls threw:\n    refused: counter 2\n    refused: counter 3"]
        ) { store, _ in
            store.addListener { _, new in
                if new.counter > 1 {
                    throw Refused(reason: "counter \(new.counter)")
                }
            }
            for counter in 1 ... 3 {
                await store.send(Add(amount: 1)) { $0.counter = counter }
            }
        },
        StoreScenario(
            testDescription: "finish after one listener call threw says call, in the singular",
            reports: [leftBehind + "• 1 listener call threw:\n    refused: always"]
        ) { store, _ in
            store.addListener { _, _ in throw Refused(reason: "always") }
            await store.send(Add(amount: 1)) { $0.counter = 1 }
        },
    ]

    /// Items the store handles that the test did not send, whoever dispatched them, are received.
    static let sources: [StoreScenario] = [
        StoreScenario(testDescription: "a sync side effect's dispatch is received") { store, _ in
            await store.send(AddNow(amount: 3)) { $0.counter = 3 }
            await store.receive(Add.self) { $0.counter = 3 }
        },
        StoreScenario(testDescription: "a sync side effect's dispatches are received in order") { store, _ in
            await store.send(NoteThenAdd(text: "n", amount: 3)) {
                $0.counter = 3
                $0.log = ["n"]
            }
            await store.receive(Note.self) { $0.log = ["n"] }
            await store.receive(Add.self) { $0.counter = 3 }
        },
        StoreScenario(testDescription: "a side effect dispatched by a side effect is received, and so is what it dispatches") { store, gate in
            await store.send(LaunchGateWait(gate: gate))
            await store.receive(AwaitGate.self)
            gate.open()
            await store.receive(Add.self) { $0.counter = 1 }
        },
        StoreScenario(
            testDescription: "an observer rule's dispatch is received",
            interceptors: [CountingRules.notingCounterChanges()]
        ) { store, _ in
            await store.send(Add(amount: 2)) { $0.counter = 2 }
            await store.receive(Note.self) { $0.log = ["0->2"] }
            await store.send(Add(amount: 1)) {
                $0.counter = 3
                $0.log = ["0->2"]
            }
            await store.receive(Note.self) { $0.log = ["0->2", "2->3"] }
        },
        StoreScenario(
            testDescription: "an observer rule's dispatch not received is reported by finish",
            interceptors: [CountingRules.notingCounterChanges()],
            reports: [leftBehind + "• 1 received item not asserted with receive:\n    KatanaTestingTests.Note (#1)"]
        ) { store, _ in
            await store.send(Add(amount: 2)) { $0.counter = 2 }
        },
        StoreScenario(
            testDescription: "a slow observer rule's dispatch is received",
            interceptors: [CountingRules.slowlyNotingCounterChanges()]
        ) { store, _ in
            await store.send(Add(amount: 2)) { $0.counter = 2 }
            await store.receive(Note.self) { $0.log = ["0->2"] }
        },
        StoreScenario(
            testDescription: "a slow observer rule's dispatch not received is still seen by finish",
            interceptors: [CountingRules.slowlyNotingCounterChanges()],
            reports: [leftBehind + "• 1 received item not asserted with receive:\n    KatanaTestingTests.Note (#1)"]
        ) { store, _ in
            await store.send(Add(amount: 2)) { $0.counter = 2 }
        },
    ]

    /// Time through the test store (each needs task executors: see `clockExecutorIsAvailable`).
    static let clock: [StoreScenario] = [
        StoreScenario(
            testDescription: "finish with a sleep on the test clock reports the sleep",
            reports: [
                leftBehind
                    + "• 1 sleep still waiting on the test clock (now +0.0 seconds): until +3.0 seconds; advance the clock, or cancel the side effects",
            ]
        ) { store, gate in
            let clock = store.clock
            // A sleeper that is not a side effect of the store, so it is the only leftover; it is
            // cancelled once the store has finished.
            let sleeper = startOnClock(clock) { try await clock.sleep(for: .seconds(3)) }
            Task {
                await gate.wait()
                sleeper.cancel()
            }
            // A sleep that never came shows as a report missing.
            try? await clock.waitUntil("the sleeper's sleep") { clock.sleepers.count == 1 }
        },
        StoreScenario(testDescription: "an async side effect's dispatch after a sleep on the clock is received") { store, _ in
            await store.send(LoadAmount())
            await store.advance(by: .seconds(1))
            await store.receive(Add.self) { $0.counter = 41 }
        },
        StoreScenario(testDescription: "an advance wakes nested sleeps, each at its deadline") { store, _ in
            await store.send(RetryWithBackoff())
            await store.advance(by: .seconds(3))
            await store.receiveAttempt(1)
            await store.receiveAttempt(2)
            await store.advance(by: .seconds(4))
            await store.receiveAttempt(3)
        },
        StoreScenario(
            testDescription: "of a quick burst of debounced searches, only the latest dispatches",
            finalState: Counting(log: ["search abc"])
        ) { store, _ in
            await store.send(DebouncedSearch(query: "a"))
            await store.advance(by: .milliseconds(200))
            await store.send(DebouncedSearch(query: "ab"))
            await store.advance(by: .milliseconds(200))
            await store.send(DebouncedSearch(query: "abc"))
            await store.advance(by: .milliseconds(300))
            await store.receive(Note.self) { $0.log = ["search abc"] }
        },
        StoreScenario(testDescription: "two debounced searches far apart both dispatch") { store, _ in
            await store.send(DebouncedSearch(query: "a"))
            await store.advance(by: .milliseconds(300))
            await store.receive(Note.self) { $0.log = ["search a"] }
            await store.send(DebouncedSearch(query: "b"))
            await store.advance(by: .milliseconds(300))
            await store.receive(Note.self) { $0.log = ["search a", "search b"] }
        },
    ]

    /// Which fields a state assertion compares, and what becomes of unasserted received items.
    static let exhaustivity: [StoreScenario] = [
        StoreScenario(
            testDescription: "exhaustive: the whole state is compared, so a field the closure does not set fails",
            reports: [
                """
                State after sending KatanaTestingTests.AddAndNote differs from the expectation (− expected, + actual):
                  Counting(
                    counter: 1,
                −   log: []
                +   log: [
                +     "added 1"
                +   ]
                  )
                """,
            ]
        ) { store, _ in
            await store.send(AddAndNote(amount: 1)) { $0.counter = 1 }
        },
        StoreScenario(testDescription: "exhaustive: setting every changed field passes") { store, _ in
            await store.send(AddAndNote(amount: 1)) {
                $0.counter = 1
                $0.log = ["added 1"]
            }
        },
        StoreScenario(testDescription: "not exhaustive: only the fields the closure sets are compared", exhaustivity: .off) { store, _ in
            await store.send(AddAndNote(amount: 1)) { $0.counter = 1 }
            await store.send(AddAndNote(amount: 2)) { $0.log = ["added 1", "added 2"] }
            await store.send(AddAndNote(amount: 3))
        },
        StoreScenario(
            testDescription: "not exhaustive: a field the closure sets wrongly still fails",
            exhaustivity: .off,
            reports: [
                """
                State after sending KatanaTestingTests.AddAndNote differs from the expectation (− expected, + actual):
                  Counting(
                −   counter: 5,
                +   counter: 1,
                    log: [
                      "added 1"
                    ]
                  )
                """,
            ]
        ) { store, _ in
            await store.send(AddAndNote(amount: 1)) { $0.counter = 5 }
        },
        StoreScenario(testDescription: "not exhaustive: receive compares only the fields the closure sets", exhaustivity: .off) { store, _ in
            await store.send(NoteThenAdd(text: "a", amount: 2))
            await store.receive(Add.self) { $0.counter = 2 }
        },
        StoreScenario(testDescription: "not exhaustive: send skips unasserted received items silently", exhaustivity: .off) { store, _ in
            await store.send(AddNow(amount: 1)) { $0.counter = 1 }
            await store.send(Note(text: "n")) { $0.log = ["n"] }
        },
        StoreScenario(testDescription: "not exhaustive: send and finish skip unasserted received items silently", exhaustivity: .off) { store, _ in
            await store.send(AddNow(amount: 1)) { $0.counter = 1 }
            await store.send(AddNow(amount: 1)) { $0.counter = 2 }
        },
        StoreScenario(
            testDescription: "showing skipped items: send and finish note what they skip",
            exhaustivity: .off(showSkipped: true),
            reports: [
                "Skipped the received KatanaTestingTests.Add (#1) before sending KatanaTestingTests.AddNow.",
                "Skipped the received KatanaTestingTests.Add (#3): no receive asserted it.",
            ],
            severities: [.note, .note]
        ) { store, _ in
            await store.send(AddNow(amount: 1)) { $0.counter = 1 }
            await store.send(AddNow(amount: 1)) { $0.counter = 2 }
        },
    ]

    /// Dependencies prepared per test, and what the store does at its start.
    static let dependencies: [StoreScenario] = [
        StoreScenario(
            testDescription: "an on-start rule's side effect already sees the prepared dependencies",
            interceptors: [CountingRules.addingTheDependencyAmountAtStart()],
            amount: 9
        ) { store, _ in
            await store.receive(AddTheDependencyAmount.self) { $0.counter = 9 }
            await store.receive(Add.self) { $0.counter = 9 }
        },
        StoreScenario(
            testDescription: "what the start dispatched must be received before the first send",
            interceptors: [CountingRules.addingTheDependencyAmountAtStart()],
            amount: 9,
            reports: [
                "Before sending KatanaTestingTests.Add, receive must assert 2 received items: KatanaTestingTests.AddTheDependencyAmount (#0), KatanaTestingTests.Add (#1)",
            ]
        ) { store, _ in
            await store.send(Add(amount: 1)) { $0.counter = 10 }
            await store.skipReceivedItems()
        },
    ]
}

extension StoreScenario {
    /// Every scenario: what send, receive and finish report, the sources of received items, time,
    /// exhaustivity, and the store's start.
    static let all: [StoreScenario] = sending + receiving + finishing + sources
        + clock.map { scenario in
            var scenario = scenario
            scenario.needsTheClockExecutor = true
            return scenario
        }
        + exhaustivity + dependencies

    /// Whether this system can run the scenario.
    var canRun: Bool {
        !needsTheClockExecutor || clockExecutorIsAvailable
    }
}

/// Every scenario under Swift Testing.
@Suite struct StoreScenarioTests {
    @Test(arguments: StoreScenario.all)
    func theTestStore_reportsExactlyWhatTheScenarioExpects(_ scenario: StoreScenario) async {
        guard scenario.canRun else { return }
        #expect(await scenario.run() == scenario.expected)
    }
}

/// Every scenario under XCTest: the same reports, whichever framework runs the test.
final class StoreScenarioXCTests: XCTestCase {
    func test_theTestStore_reportsExactlyWhatEachScenarioExpects() async {
        for scenario in StoreScenario.all where scenario.canRun {
            let outcome = await scenario.run()
            XCTAssertEqual(outcome, scenario.expected, scenario.testDescription)
        }
    }
}
