import DocumentationSupport
import Foundation
import Testing

/// Every relative link in the README, the articles under docs/ and the examples' READMEs points at
/// a file or folder that exists, and a link's `#anchor` at a heading of the file it names.
@Suite struct DocumentationLinksTests {
    /// The documents checked: the README, every markdown file under docs/, every example's README.
    static func documents() throws -> [String] {
        let files = FileManager.default
        let root = MarkdownDocument.packageRoot
        let articles = try files.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        let examples = try files.contentsOfDirectory(atPath: root.appendingPathComponent("Examples").path)
            .sorted().map { "Examples/\($0)/README.md" }
            .filter { files.fileExists(atPath: root.appendingPathComponent($0).path) }
        return ["README.md"] + articles + examples
    }

    @Test func theDocumentsAreThere() throws {
        let documents = try Self.documents()
        for article in ["StoreAndThreading", "Lifetimes", "ObserverRules", "SignalsAndTimers", "Testing", "PERFORMANCE", "RELIABILITY"] {
            #expect(documents.contains("docs/\(article).md"))
        }
        #expect(documents.contains("Examples/ServiceDemo/README.md"))
    }

    @Test func everyRelativeLinkResolves() throws {
        var broken: [String] = []
        var checked = 0
        for path in try Self.documents() {
            let document = try MarkdownDocument(path)
            let folder = (path as NSString).deletingLastPathComponent
            for link in document.relativeLinks {
                checked += 1
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].removingPercentEncoding ?? parts[0]
                let anchor = parts.count > 1 ? parts[1] : nil
                let target = file.isEmpty ? path : ((folder as NSString).appendingPathComponent(file) as NSString).standardizingPath
                let url = MarkdownDocument.packageRoot.appendingPathComponent(target)
                guard FileManager.default.fileExists(atPath: url.path) else {
                    broken.append("\(path): \(link) (no \(target))")
                    continue
                }
                if let anchor, target.hasSuffix(".md") {
                    let anchors = try MarkdownDocument(target).anchors
                    if !anchors.contains(anchor) {
                        broken.append("\(path): \(link) (\(target) has no heading #\(anchor))")
                    }
                }
            }
        }
        #expect(checked > 20)
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    @Test func anchorsAreMadeAsGitHubMakesThem() {
        #expect(MarkdownDocument.anchor("Katana's order") == "katanas-order")
        #expect(MarkdownDocument.anchor("A store as one of a service's parts") == "a-store-as-one-of-a-services-parts")
        #expect(MarkdownDocument.anchor("Time: the test clock") == "time-the-test-clock")
        #expect(MarkdownDocument.anchor("Side-effect workers") == "side-effect-workers")
    }
}
