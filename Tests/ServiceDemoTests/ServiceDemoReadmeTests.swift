import DocumentationSupport
import Foundation
import Testing

/// The demo's README (Examples/ServiceDemo/README.md) quotes the demo's code: the quote stays true
/// to the source.
@Suite struct ServiceDemoReadmeTests {
    @Test func readmeShutdownSnippet_isTheEndOfMainAsWritten() throws {
        let readme = try MarkdownDocument("Examples/ServiceDemo/README.md").text
        let source = try String(
            contentsOf: MarkdownDocument.packageRoot.appendingPathComponent("Examples/ServiceDemo/ServiceDemo.swift"),
            encoding: .utf8
        )
        let marker = "(the end of `main` in `ServiceDemo.swift`):"
        let afterMarker = try #require(readme.range(of: marker)).upperBound
        let block = try #require(MarkdownDocument.swiftBlocks(in: String(readme[afterMarker...])).first)
        let snippet = normalisedLines(block.joined(separator: "\n"))
        #expect(snippet.count >= 5)
        #expect(containsLines(normalisedLines(source), snippet),
                "the demo README's snippet is not a contiguous excerpt of ServiceDemo.swift:\n\(snippet.joined(separator: "\n"))")
    }

    /// The main README keeps the one command and points here.
    @Test func theMainReadme_runsTheDemoAndLinksItsReadme() throws {
        let readme = try MarkdownDocument("README.md").text
        #expect(readme.contains("swift run katana-service-demo"))
        #expect(readme.contains("(Examples/ServiceDemo/README.md)"))
    }
}
