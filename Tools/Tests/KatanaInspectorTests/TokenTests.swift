import Foundation
@testable import KatanaInspector
import KatanaRecording
import Testing

/// The inspector listens on the loopback address unless told otherwise, and needs a token anywhere else.
@Suite struct TokenTests {
    @Test func byDefaultItListensOnTheLoopbackAddressWithoutAToken() throws {
        let configuration = InspectorConfiguration()
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.token == nil)
        try configuration.validate()
    }

    @Test func anotherAddressNeedsAToken() throws {
        #expect(throws: InspectorError.tokenRequired(host: "0.0.0.0")) {
            try InspectorConfiguration(host: "0.0.0.0").validate()
        }
        #expect(InspectorError.tokenRequired(host: "0.0.0.0").description.contains("may hold secrets"))
        try InspectorConfiguration(host: "0.0.0.0", token: "s3cret-0123456789").validate()
        #expect(throws: InspectorError.invalidToken) {
            try InspectorConfiguration(token: "has space").validate()
        }
        #expect(throws: InspectorError.invalidToken) {
            try InspectorConfiguration(token: "").validate()
        }
        #expect(throws: InspectorError.invalidPort(70_000)) {
            try InspectorConfiguration(port: 70_000).validate()
        }
    }

    @Test func withATokenEveryRequestMustCarryIt() async throws {
        let url = try await RecordedSession.record(extra: 0)
        defer { try? FileManager.default.removeItem(at: url) }
        try await ServedInspector.withFile(url.path, configuration: InspectorConfiguration(port: 0, token: "s3cret-0123456789")) { server in
            #expect(server.url.absoluteString.hasSuffix("/?token=s3cret-0123456789"))
            let base = try #require(URL(string: "/", relativeTo: server.url)?.absoluteURL)
            for path in ["", "inspector.js", "api/summary", "api/items", "api/items/1"] {
                let bare = try await ServedInspector.get(base.appendingPathComponent(path))
                #expect(bare.status == 401, "\(path) answered without the token")
                let refused = try JSONDecoder().decode(JSONValue.self, from: bare.body)
                #expect(refused["error"]?.string?.contains("needs its token") == true)
                let wrong = try await ServedInspector.get(try #require(URL(string: "/\(path)?token=s3cret-0123456788", relativeTo: server.url)))
                #expect(wrong.status == 401)
                let query = try await ServedInspector.get(try #require(URL(string: "/\(path)?token=s3cret-0123456789", relativeTo: server.url)))
                #expect(query.status == 200, "\(path) refused the token in the query")
                let header = try await ServedInspector.get(base.appendingPathComponent(path), headers: ["Authorization": "Bearer s3cret-0123456789"])
                #expect(header.status == 200, "\(path) refused the token in the header")
            }
        }
    }

    @Test func tokensAreComparedWhole() {
        #expect(TokenCheck.same("s3cret", "s3cret"))
        #expect(!TokenCheck.same("s3cre", "s3cret"))
        #expect(!TokenCheck.same("s3cret1", "s3cret"))
        #expect(!TokenCheck.same("", "s3cret"))
    }
}
