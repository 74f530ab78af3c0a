import Testing
@testable import Katana
import KatanaTestSupport

/// Store semantics 4: the signpost hook reports every handled item.
@Suite struct SignpostLoggerTests {
    private struct Traced: Equatable {
        let name: String
        let kind: SignpostLogger.Kind
    }

    @Test func signpostHook_reportsBeginAndEndWithNameKindAndDuration_forEveryHandledItem() async throws {
        let events = LockedList<SignpostLogger.Event>()
        let logger = SignpostLogger(hook: { events.append($0) })
        let store = makeStore(configuration: testConfiguration(signpostLogger: logger))

        try await store.dispatch(Increment(amount: 1)).settled()
        _ = try await rejection(of: store.dispatch(Fails(code: 1)))
        _ = try await store.dispatch(ReadCounter()).settled()
        _ = try await store.dispatch(AsyncAdd(amount: 2)).settled()

        let all = events.all
        let begins = all.filter { $0.phase == .begin }
        let ends = all.filter { $0.phase != .begin }
        let expected = [
            Traced(name: "KatanaTests.Increment", kind: .stateUpdater),
            Traced(name: "KatanaTests.Fails", kind: .sideEffect),
            Traced(name: "KatanaTests.ReadCounter", kind: .sideEffect),
            Traced(name: "KatanaTests.AsyncAdd", kind: .sideEffect),
            Traced(name: "KatanaTests.Increment", kind: .stateUpdater),  // dispatched by AsyncAdd
        ]
        #expect(Set(begins.map(\.id)).count == 5)
        #expect(begins.map { Traced(name: $0.name, kind: $0.kind) }.sorted { $0.name < $1.name }
            == expected.sorted { $0.name < $1.name })
        // Every begin has exactly one end with the same id, name and kind, and a duration.
        #expect(ends.count == 5)
        for begin in begins {
            let matching = ends.filter { $0.id == begin.id }
            #expect(matching.count == 1)
            guard let end = matching.first else { continue }
            #expect(end.name == begin.name)
            #expect(end.kind == begin.kind)
            if case .end(let duration) = end.phase {
                #expect(duration >= .zero)
            } else {
                Issue.record("end event without a duration")
            }
        }
        // An end never comes before its begin.
        for (index, event) in all.enumerated() where event.phase != .begin {
            #expect(all[..<index].contains { $0.id == event.id && $0.phase == .begin })
        }
    }

    @Test func signpostHook_updaterEventsAreReportedBeforeItsPromiseResolves() async throws {
        let events = LockedList<SignpostLogger.Event>()
        let store = makeStore(configuration: testConfiguration(signpostLogger: SignpostLogger(hook: { events.append($0) })))
        try await store.dispatch(NoChange()).settled()
        #expect(events.all.map(\.name) == ["KatanaTests.NoChange", "KatanaTests.NoChange"])
        #expect(events.all.map(\.kind) == [.stateUpdater, .stateUpdater])
        #expect(events.all.first?.phase == .begin)
    }
}
