import Foundation
@testable import KatanaInspector
import KatanaRecording
import KatanaTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `katana-inspected-demo --serve --inspect`: the service demo's live store on the inspector's
/// page, as its README says to run it.
@Suite struct InspectedDemoTests {
    @Test func theDemoServesItsLiveStoreAndAReloadAppearsOnThePage() async throws {
        let demo = try ChildProgram.start(
            try ChildProgram.built("katana-inspected-demo"), ["--serve", "--inspect", "--inspect-port", "0"], printing: .standardError
        )
        defer { demo.stop() }
        let process = demo.process

        try await demo.untilItPrints("inspector: open http://", "the demo's inspector address in its log")
        let line = try #require(demo.printed.split(separator: "\n").first { $0.contains("inspector: open ") })
        let address = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") }.flatMap { URL(string: String($0)) })
        #expect(address.host == "127.0.0.1")
        try await demo.untilItPrints("configuration loaded", "the configuration to be loaded")

        func items() async throws -> [String] {
            let (_, body, _) = try await ServedInspector.get(try #require(URL(string: "api/items", relativeTo: address)))
            let value = try JSONDecoder().decode(JSONValue.self, from: body)
            return value["rows"]?.array?.compactMap { $0[3]?.string } ?? []
        }
        #expect(try await items().contains("InspectedServiceDemo.SetConfiguration"))
        #expect(try await !items().contains("InspectedServiceDemo.CountReload"))

        kill(process.processIdentifier, SIGHUP)
        try await poll("the reload on the page") { try await items().contains("InspectedServiceDemo.CountReload") }

        kill(process.processIdentifier, SIGTERM)
        try await demo.untilItEnds()
        #expect(process.terminationStatus == 0)
        #expect(demo.printed.contains("summary: "))
    }
}
