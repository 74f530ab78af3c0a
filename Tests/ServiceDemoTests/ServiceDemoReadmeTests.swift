import Foundation
import Testing

/// The README's demo section quotes the demo's code: the quote stays true to the source.
@Suite struct ServiceDemoReadmeTests {
    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func readmeShutdownSnippet_isTheEndOfMainAsWritten() throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: Self.packageRoot.appendingPathComponent("Examples/ServiceDemo/ServiceDemo.swift"), encoding: .utf8)
        let marker = "(the end of `main` in `ServiceDemo.swift`):"
        let afterMarker = try #require(readme.range(of: marker)).upperBound
        let fenceStart = try #require(readme.range(of: "```swift\n", range: afterMarker..<readme.endIndex)).upperBound
        let fenceEnd = try #require(readme.range(of: "```", range: fenceStart..<readme.endIndex)).lowerBound
        let snippet = Self.trimmedLines(readme[fenceStart..<fenceEnd])
        let lines = Self.trimmedLines(source[...])
        #expect(snippet.count >= 5)
        let found = lines.indices.contains { start in
            start + snippet.count <= lines.count && Array(lines[start..<start + snippet.count]) == snippet
        }
        #expect(found, "README's snippet is not a contiguous excerpt of ServiceDemo.swift:\n\(snippet.joined(separator: "\n"))")
    }

    private static func trimmedLines(_ text: Substring) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
