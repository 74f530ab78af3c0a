import Foundation
@testable import KatanaInspector
import KatanaRecording
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `katana-inspected-demo --serve --inspect`: the service demo's live store on the inspector's
/// page, as its README says to run it.
@Suite struct InspectedDemoTests {
    /// The demo built next to these tests.
    static func demo() throws -> URL {
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let url = URL(fileURLWithPath: testBinary).deletingLastPathComponent().appendingPathComponent("katana-inspected-demo")
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "build katana-inspected-demo first")
        return url
    }

    @Test func theDemoServesItsLiveStoreAndAReloadAppearsOnThePage() async throws {
        let log = temporaryFile("demo-log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let process = Process()
        process.executableURL = try Self.demo()
        process.arguments = ["--serve", "--inspect", "--inspect-port", "0"]
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        func logText() -> String {
            (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }

        try await eventually("the demo's inspector address in its log") { logText().contains("inspector: open http://") }
        let line = try #require(logText().split(separator: "\n").first { $0.contains("inspector: open ") })
        let address = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") }.flatMap { URL(string: String($0)) })
        #expect(address.host == "127.0.0.1")
        try await eventually("the configuration to be loaded") { logText().contains("configuration loaded") }

        func items() async throws -> [String] {
            let (_, body, _) = try await ServedInspector.get(try #require(URL(string: "api/items", relativeTo: address)))
            let value = try JSONDecoder().decode(JSONValue.self, from: body)
            return value["rows"]?.array?.compactMap { $0[3]?.string } ?? []
        }
        #expect(try await items().contains("InspectedServiceDemo.SetConfiguration"))
        #expect(try await !items().contains("InspectedServiceDemo.CountReload"))

        kill(process.processIdentifier, SIGHUP)
        try await eventually("the reload on the page") { try await items().contains("InspectedServiceDemo.CountReload") }

        kill(process.processIdentifier, SIGTERM)
        try await eventually("the demo to end") { !process.isRunning }
        #expect(process.terminationStatus == 0)
        #expect(logText().contains("summary: "))
    }
}
