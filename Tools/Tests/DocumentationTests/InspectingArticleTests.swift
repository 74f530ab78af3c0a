import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Katana
import KatanaInspector
import KatanaRecording
import KatanaTestSupport
import Testing

/// docs/Inspecting.md's snippets, compiled and run. They serve on the documented port, 7766, so
/// they run one at a time; a port another program holds is reported by the inspector, not failed.
@Suite(.serialized) struct InspectingArticleTests {
    struct AppState: State, Codable {
        var visits = 0
    }

    struct Visit: StateUpdater, Codable {
        func updateState(_ state: inout AppState) { state.visits += 1 }
    }

    final class AppDependencies: SideEffectDependencyContainer {
        init(dispatch: @escaping AnyDispatch, getState: @escaping GetState) {}
    }

    @Test func theOneLineServesTheStoreOnTheLoopbackAddress() async throws {
        let store = Store<AppState, AppDependencies>(interceptors: Interceptors {
            StoreRecorder(to: LiveInspector<AppState>())   // http://127.0.0.1:7766/
        })
        try await store.dispatch(Visit()).settled()
        #expect(store.state.visits == 1)
        let summary = URL(string: "http://127.0.0.1:7766/api/summary")!
        var answer: String?
        // Until the inspector answers with the item. Another program on the port answers
        // something else until the bound: the checks below tell the two apart, so running out of
        // time is not a failure here.
        do {
            try await poll("the inspector on 127.0.0.1:7766 to show the item") {
                var request = URLRequest(url: summary)
                request.timeoutInterval = 5
                answer = try? String(decoding: await URLSession.shared.data(for: request).0, as: UTF8.self)
                return answer?.contains("\"count\":1") == true
            }
        } catch is TimedOut {}
        let served = try #require(answer, "nothing answered on 127.0.0.1:7766")
        if served.contains("\"live\":true") {
            #expect(served.contains("\"count\":1"))
            #expect(served.contains("InspectingArticleTests.AppState"))
        }
    }

    /// The request a test's dispatching code runs for.
    enum Request {
        @TaskLocal static var id: String?
    }

    @Test func everyItemKeepsTheRequestItWasDispatchedFor() async throws {
        let inspector = LiveInspector<AppState>(configuration: InspectorConfiguration(port: 0))
        defer { inspector.stop() }
        let requestContext = DispatchContext(
            capture: { Request.id },
            restore: { value, body in Request.$id.withValue(value as? String) { body() } },
            restoreAsync: { value, body in await Request.$id.withValue(value as? String) { await body() } }
        )

        let store = Store<AppState, AppDependencies>(
            interceptors: Interceptors {
                StoreRecorder(to: inspector, correlation: { context in context as? String })   // the request id
            },
            configuration: .init(dispatchContext: requestContext)   // docs/Tracing.md
        )

        try await Request.$id.withValue("request-7") {
            try await store.dispatch(Visit()).settled()
        }
        try await store.dispatch(Visit()).settled()
        let url = try await withTimeout("the inspector to listen") { try await inspector.serving() }
        var rows: [JSONValue] = []
        try await poll("both items on the inspector's side") {
            inspector.flush()
            let answer = try await URLSession.shared.data(from: try #require(URL(string: "api/items", relativeTo: url))).0
            rows = try JSONDecoder().decode(JSONValue.self, from: answer)["rows"].flatMap { value in
                if case .array(let rows) = value { rows } else { nil }
            } ?? []
            return rows.count == 2
        }
        let correlations = rows.map { row -> JSONValue? in
            if case .array(let columns) = row, columns.count > 12 { columns[12] } else { nil }
        }
        #expect(correlations == [.string("request-7"), .null])
    }

    @Test func theLiveHistorysByteBoundIsASettingOfTheConfiguration() {
        let configuration = InspectorConfiguration(liveHistoryByteLimit: 64 << 20)   // 64 MiB instead of 256
        #expect(configuration.liveHistoryByteLimit == 64 << 20)
        #expect(InspectorConfiguration().liveHistoryByteLimit == 256 << 20)
        #expect(InspectorConfiguration().liveBufferByteLimit == 64 << 20)
    }

    @Test func anotherAddressIsServedWithTheToken() async throws {
        let inspectorToken = "docs-test-token-0123456789"
        let inspector = LiveInspector<AppState>(configuration: InspectorConfiguration(host: "0.0.0.0", token: inspectorToken))
        defer { inspector.stop() }
        #expect(inspector.configuration.token == inspectorToken)
        let refused = LiveInspector<AppState>(configuration: InspectorConfiguration(host: "0.0.0.0", port: 0))
        await #expect(throws: InspectorError.tokenRequired(host: "0.0.0.0")) {
            try await refused.serving()
        }
    }
}
