import Katana
import KatanaLegacy
import KatanaTestSupport
import Testing

/// The source of the links: adds to the counter.
@available(*, deprecated, message: "Exercises the deprecated ActionLinker")
struct Score: LegacyStateAction {
    let points: Int
    func update(_ state: inout LegacyState) {
        state.counter += points
        state.log.append("score \(points)")
    }
}

/// Linked to `Score`: records the counter before and after the source, and the source's points.
@available(*, deprecated, message: "Exercises the deprecated ActionLinker")
struct RecordScore: LinkeableAction, LegacyStateAction {
    let entry: String

    init?(oldState: State, newState: State, sourceAction: Action) {
        guard let old = oldState as? LegacyState, let new = newState as? LegacyState, let score = sourceAction as? Score else {
            return nil
        }
        entry = "recorded \(old.counter)->\(new.counter) (+\(score.points))"
    }

    func update(_ state: inout LegacyState) {
        state.log.append(entry)
    }
}

/// Linked to `Score`, but only when the counter crosses 10: otherwise its initialiser returns nil.
@available(*, deprecated, message: "Exercises the deprecated ActionLinker")
struct CrossedTen: LinkeableAction, LegacyStateAction {
    init?(oldState: State, newState: State, sourceAction: Action) {
        guard let old = oldState as? LegacyState, let new = newState as? LegacyState, old.counter < 10, new.counter >= 10 else {
            return nil
        }
    }

    func update(_ state: inout LegacyState) {
        state.log.append("crossed ten")
    }
}

/// A second unconditional link, to check the order of links.
@available(*, deprecated, message: "Exercises the deprecated ActionLinker")
struct Applaud: LinkeableAction, LegacyStateAction {
    init?(oldState: State, newState: State, sourceAction: Action) {}
    func update(_ state: inout LegacyState) {
        state.log.append("applaud")
    }
}

@Suite struct ActionLinkerTests {
    @available(*, deprecated, message: "Exercises the deprecated ActionLinker")
    private func makeLinkedStore() -> LegacyStore {
        let links = [
            ActionLinks(source: Score.self, links: [RecordScore.self, CrossedTen.self]),
            ActionLinks(source: Score.self, links: [Applaud.self]),
        ]
        return makeStore(interceptors: [middlewareToInterceptor(ActionLinker.middleware(for: links))])
    }

    @available(*, deprecated, message: "Exercises the deprecated ActionLinker")
    @Test func linkedActions_areCreatedWithTheOldAndNewState_andDispatchedAfterTheirSource() async throws {
        let store = makeLinkedStore()
        try await store.dispatch(Score(points: 4)).settled()
        try await store.waitUntil { store.state.log.count == 3 }
        #expect(store.state.log == ["score 4", "recorded 0->4 (+4)", "applaud"])
    }

    @available(*, deprecated, message: "Exercises the deprecated ActionLinker")
    @Test func failableLinks_thatReturnNil_areSkipped() async throws {
        let store = makeLinkedStore()
        try await store.dispatch(Score(points: 4)).settled()
        try await store.waitUntil { store.state.log.count == 3 }
        try await store.dispatch(Score(points: 7)).settled()
        try await store.waitUntil { store.state.log.count == 7 }
        #expect(store.state.log == [
            "score 4", "recorded 0->4 (+4)", "applaud",
            "score 7", "recorded 4->11 (+7)", "crossed ten", "applaud",
        ])
        try await settle(store)
        #expect(store.state.log.filter { $0 == "crossed ten" }.count == 1)
    }

    @available(*, deprecated, message: "Exercises the deprecated ActionLinker")
    @Test func itemsThatAreNotSources_passThroughUntouched() async throws {
        let store = makeLinkedStore()
        try await store.dispatch(AppendUpdater(tag: "modern")).settled()
        try await store.dispatch(AppendAction(tag: "legacy")).settled()
        try await settle(store)
        #expect(store.state.log == ["modern", "legacy"])
    }

    @available(*, deprecated, message: "Exercises the deprecated ActionLinker")
    @Test func actionLinks_keepTheirSourceAndLinks() {
        let links = ActionLinks(source: Score.self, links: [RecordScore.self, Applaud.self])
        #expect(ObjectIdentifier(links.source) == ObjectIdentifier(Score.self))
        #expect(links.links.map { String(describing: $0) } == ["RecordScore", "Applaud"])
    }
}
