import Foundation
import Katana
import KatanaObservers
import KatanaRecording
import KatanaTestSupport
import KatanaTesting
import Testing

/// The snippets of docs/Recording.md, compiled and run (the documentation test checks that each
/// block of the article is in this file, line for line).
@Suite struct RecordingArticleTests {
    @Test func recordReplayAndDumpAsTheArticleShows() async throws {
        let path = temporaryRecordingURL().path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dumpURL = temporaryRecordingURL()
        defer { try? FileManager.default.removeItem(at: dumpURL) }

        let flightRecorder = FlightRecorder<TodoState>(capacity: 1_000)
        let recordingFile = try RecordingFile<TodoState>(writingTo: URL(fileURLWithPath: path))
        let store = Store<TodoState, EmptySideEffectDependencyContainer>(interceptors: Interceptors {
            StoreRecorder(to: flightRecorder, recordingFile)   // first: it sees every item
            ObserverInterceptor.rules {
                OnDispatch(ToggleTodo.self) { _ in CountToggle() }
            }
        })

        try await store.dispatch(AddTodo(title: "milk")).settled()
        try await store.dispatch(ToggleTodo(index: 0)).settled()
        // The rule's count, and its item recorded (the recorder appends it after the state changed).
        try await store.waitUntil("the rule's toggle count, recorded") { store.state.toggles == 1 && store.workSnapshot.isIdle }
        recordingFile.close()

        let recording = try Recording<TodoState>(contentsOf: URL(fileURLWithPath: path))
        let report = try recording.replay(
            into: Store<TodoState, EmptySideEffectDependencyContainer>(),
            items: [AddTodo.self, ToggleTodo.self, CountToggle.self],
            renaming: ["AddTodoAction": AddTodo.self]
        )
        if let difference = report.difference {
            print(difference)
        }
        #expect(report.matches)
        #expect(report.replayedItems == 3)

        try flightRecorder.write(to: dumpURL)   // after a failure, or on a signal
        let start = flightRecorder.stateBeforeFirstItem ?? TodoState()
        let lastItems = try Recording<TodoState>(contentsOf: dumpURL)
        let lastReport = try lastItems.replay(
            into: Store<TodoState, EmptySideEffectDependencyContainer>(interceptors: [], stateInitializer: { start }),
            items: [AddTodo.self, ToggleTodo.self, CountToggle.self]
        )
        #expect(lastReport.matches)
        #expect(lastItems.entries.count == 3)
    }

    @Test func recordWhichRequestEachItemWasDispatchedFor() async throws {
        let url = temporaryRecordingURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let recordingFile = try RecordingFile<TodoState>(writingTo: url)
        let requestContext = CorrelationTests.requestContext

        let store = Store<TodoState, EmptySideEffectDependencyContainer>(
            interceptors: Interceptors {
                StoreRecorder(to: recordingFile, correlation: { context in context as? String })   // the request id
            },
            configuration: .init(dispatchContext: requestContext)   // docs/Tracing.md
        )

        try await CorrelationTests.Request.$id.withValue("request-7") {
            try await store.dispatch(LoadTodos(titles: ["milk"])).settled()
        }
        try await store.waitUntilIdle()
        recordingFile.close()
        let recording = try Recording<TodoState>(contentsOf: url)
        #expect(recording.entries.map(\.correlation) == ["request-7", "request-7", "request-7"])
    }

    @Test func aReplayInATest() async throws {
        let recording = try await ReplayFixture.recording()
        assertReplay(recording, into: Store<TodoState, EmptySideEffectDependencyContainer>(), items: [AddTodo.self, ToggleTodo.self])
    }
}
