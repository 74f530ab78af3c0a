import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import KatanaInspector
import KatanaRecording
import KatanaTestSupport
import Testing

/// A real inspector server on a free loopback port, for one test: start it, ask it things, stop it.
struct ServedInspector {
    let url: URL
    let task: Task<Void, any Error>

    /// Serves the recording at `path`.
    static func file(_ path: String, configuration: InspectorConfiguration = InspectorConfiguration(port: 0)) async throws -> ServedInspector {
        try await serve(InspectorServer(recordingAt: path, configuration: configuration))
    }

    /// Runs `body` with a server for the recording at `path`, and stops the server however `body` ends.
    static func withFile<T>(
        _ path: String, configuration: InspectorConfiguration = InspectorConfiguration(port: 0),
        _ body: (ServedInspector) async throws -> T
    ) async throws -> T {
        try await with(InspectorServer(recordingAt: path, configuration: configuration), body)
    }

    /// Runs `body` with `server` serving, and stops it however `body` ends.
    static func with<T>(_ server: InspectorServer, _ body: (ServedInspector) async throws -> T) async throws -> T {
        let served = try await serve(server)
        do {
            let result = try await body(served)
            await served.stop()
            return result
        } catch {
            await served.stop()
            throw error
        }
    }

    static func serve(_ server: InspectorServer) async throws -> ServedInspector {
        let address = ServingAddress()
        let task = Task {
            do {
                try await server.run { url in address.settle(.success(url)) }
            } catch {
                address.settle(.failure(error))
                throw error
            }
        }
        let url = try await withTimeout("the server to listen") { try await address.value() }
        return ServedInspector(url: url, task: task)
    }

    func stop() async {
        task.cancel()
        _ = await task.result
    }

    /// The response to `GET path` (with `query` appended as it is).
    func get(_ path: String, headers: [String: String] = [:]) async throws -> (status: Int, body: Data, contentType: String?) {
        try await Self.get(URL(string: path, relativeTo: url)?.absoluteURL ?? url, headers: headers)
    }

    /// Whether an ordinary request (the summary, with the token when there is one) is answered 200.
    func answersNormally() async throws -> Bool {
        let query = url.query.map { "?\($0)" } ?? ""
        let target = URL(string: "/api/summary\(query)", relativeTo: url)?.absoluteURL ?? url
        return try await Self.get(target).status == 200
    }

    /// The port it listens on.
    var port: Int {
        url.port ?? 0
    }

    /// The JSON answer to `GET path`, with its status.
    func json(_ path: String, headers: [String: String] = [:]) async throws -> (status: Int, value: JSONValue) {
        let (status, body, _) = try await get(path, headers: headers)
        return (status, try JSONDecoder().decode(JSONValue.self, from: body))
    }

    static func get(_ url: URL, headers: [String: String] = [:]) async throws -> (status: Int, body: Data, contentType: String?) {
        var request = URLRequest(url: url)
        request.timeoutInterval = 30
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (body, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, body, http.value(forHTTPHeaderField: "Content-Type"))
    }
}

/// A file of its own in the temporary folder, removed by the caller.
func temporaryFile(_ name: String = "recording", contents: Data? = nil) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("inspector-\(UUID().uuidString)-\(name).jsonl")
    if let contents {
        _ = FileManager.default.createFile(atPath: url.path, contents: contents)
    }
    return url
}

extension JSONValue {
    /// The value at `index`, when this is an array that long.
    subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { elements[index] } else { nil }
    }

    var int: Int? {
        if case .integer(let value) = self { Int(value) } else { nil }
    }

    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    var array: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }
}
