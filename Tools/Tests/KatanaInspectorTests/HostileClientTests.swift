import Foundation
@testable import KatanaInspector
import KatanaRecording
import Testing

/// Clients that mean harm, or are broken, on the wire against a real inspector: each test ends by
/// checking that an ordinary request is still answered. The tests are spread over this file and
/// its extensions (`HostileClientTests+Hosts.swift` and the others beside it).
@Suite struct HostileClientTests {
    /// Runs `body` with a server for a short recording, made with `configuration`, then checks that
    /// the server still answers an ordinary request.
    static func withServer(
        _ configuration: InspectorConfiguration = InspectorConfiguration(port: 0),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (ServedInspector) async throws -> Void
    ) async throws {
        let url = try await RecordedSession.record(extra: 0)
        defer { try? FileManager.default.removeItem(at: url) }
        try await ServedInspector.withFile(url.path, configuration: configuration) { server in
            try await body(server)
            #expect(try await server.answersNormally(), "an ordinary request is no longer answered", sourceLocation: sourceLocation)
        }
    }
}
