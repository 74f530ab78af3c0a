import DocumentationSupport
import Foundation
import Katana
import KatanaRecording
import Testing
@testable import katana_service_demo

/// `katana-service-demo --record PATH` records the tour; the recording replays with no difference,
/// as the demo's README shows.
@Suite struct ServiceDemoRecordingTests {
    @available(*, deprecated, message: "Replays the demo's 2.x Tick action")
    @Test func theRecordedTourReplaysWithNoDifference() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tour-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, log, _) = try await DemoProcess.run(["--record", path])
        #expect(status == 0, "log:\n\(log)")
        #expect(log.nonEmptyLines.last?.hasSuffix("recorded the session to \(path)") == true, "log:\n\(log)")

        // snippet: replay the tour
        let recording = try Recording<DemoState>(contentsOf: URL(fileURLWithPath: path))
        let report = try recording.replay(
            into: Store<DemoState, EmptySideEffectDependencyContainer>(),
            items: [SetConfiguration.self, CountReload.self, SetSearchResult.self, Tick.self]
        )
        print(report.difference.map(String.init(describing:)) ?? "no difference in \(report.replayedItems) items")
        // end snippet
        #expect(report.matches)
        #expect(report.replayedItems >= 5)

        // Where items came from: the configuration from the side effect that loaded it, the
        // heartbeats from the timer rule, the searches from the tour's side effect.
        let load = try #require(recording.entries.first { $0.typeName == "katana_service_demo.LoadConfiguration" })
        #expect(load.kind == .sideEffect)
        let set = try #require(recording.entries.first { $0.typeName == "katana_service_demo.SetConfiguration" })
        #expect(set.origin == .sideEffect(type: "katana_service_demo.LoadConfiguration", sequence: load.sequence))
        let tick = try #require(recording.entries.first { $0.typeName == "katana_service_demo.Tick" })
        #expect(tick.kind == .stateUpdater)
        let lastState = try #require(recording.entries.last?.stateAfter)
        #expect(lastState["reloads"] == .integer(1))
    }

    @Test func theReadmeReplaySnippetIsTheTestedCode() throws {
        let readme = try MarkdownDocument("Examples/ServiceDemo/README.md").text
        let marker = "runs this:"
        let afterMarker = try #require(readme.range(of: marker)).upperBound
        let block = try #require(MarkdownDocument.swiftBlocks(in: String(readme[afterMarker...])).first)
        let tested = try markedSnippet("replay the tour", inFile: "Tests/ServiceDemoTests/ServiceDemoRecordingTests.swift")
        #expect(normalisedLines(block.joined(separator: "\n")) == normalisedLines(tested.joined(separator: "\n")))
    }

    @Test func recordWithoutAPath_exitsWithTwoAndSaysWhatIsMissing() async throws {
        let (status, log, _) = try await DemoProcess.run(["--record"])
        #expect(status == 2)
        #expect(log.contains("--record needs a file path"))
    }

    @Test func recordIntoAFolderThatDoesNotExist_exitsWithTwoAndSaysWhy() async throws {
        let (status, log, _) = try await DemoProcess.run(["--record", "/nonexistent/folder/tour.jsonl"])
        #expect(status == 2)
        #expect(log.contains("Cannot create the recording file /nonexistent/folder/tour.jsonl: the folder /nonexistent/folder does not exist; create it first."), "log:\n\(log)")
    }
}
