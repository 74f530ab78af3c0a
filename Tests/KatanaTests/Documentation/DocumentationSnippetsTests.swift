import DocumentationSupport
import Foundation
import Testing

/// Every Swift snippet of the README, the articles under docs/ and the demo's README is accounted
/// for: it appears line for line in a Swift file of the package (a test that compiles and runs it,
/// or the demo's source), or it is listed below with the test that runs an adapted copy of it, or
/// with the reason it is not compiled. A new snippet fails this test until it is one of the three.
@Suite struct DocumentationSnippetsTests {
    static let documents = [
        "README.md", "docs/StoreAndThreading.md", "docs/Lifetimes.md", "docs/ObserverRules.md",
        "docs/SignalsAndTimers.md", "docs/Testing.md", "docs/Recording.md", "docs/Tracing.md", "Examples/ServiceDemo/README.md",
        // Compiled by the Tools package's tests (Tools/Tests/DocumentationTests).
        "docs/Inspecting.md", "docs/LoggingAndMetrics.md",
    ]

    /// Snippets run by a test in an adapted form (names made unique in the test target, a listener
    /// queue of the test's own, output recorded instead of printed), keyed by document and first line.
    static let adaptedCopies: [String: String] = [
        "docs/StoreAndThreading.md: import Katana": "Tests/KatanaTests/Documentation/ReadmeQuickStartTests.swift",
        "docs/StoreAndThreading.md: for await (old, new) in store.stateUpdates where old.counter != new.counter {":
            "Tests/KatanaTests/Documentation/ReadmeQuickStartTests.swift",
        "docs/Lifetimes.md: struct SearchState: State {": "Tests/KatanaTests/Documentation/ReadmeLifetimesTests.swift",
        "docs/Lifetimes.md: let report = await store.shutdown(.finishWork, deadline: .seconds(10))":
            "Tests/KatanaTests/Documentation/ReadmeLifetimesTests.swift",
        "docs/Lifetimes.md: store.addListener(of: \\.query) { old, new in print(\"query: \\(old) -> \\(new)\") }":
            "Tests/KatanaTests/Documentation/ReadmeLifetimesTests.swift",
        "docs/ObserverRules.md: import KatanaObservers": "Tests/KatanaObserversTests/Documentation/ReadmeObserverExamplesTests.swift",
        "docs/ObserverRules.md: let observer = ObserverInterceptor.observe {":
            "Tests/KatanaObserversTests/Documentation/ReadmeObserverExamplesTests.swift",
        "docs/ObserverRules.md: enum Rules {": "Tests/KatanaObserversTests/Documentation/ReadmeObserverExamplesTests.swift",
        "docs/SignalsAndTimers.md: import Foundation": "Tests/NotificationBridgeTests/ReadmeBridgeExampleTests.swift",
        "docs/Testing.md: import KatanaTesting": "Tests/KatanaTestingTests/Documentation/ReadmeTestingTests.swift",
        "docs/Testing.md: final class TimedDependencies: SideEffectDependencyContainer, @unchecked Sendable {":
            "Tests/KatanaTestingTests/Documentation/ReadmeTestingTests.swift",
        // Its own package, built against swift-service-lifecycle: `swift test --package-path Examples/ServiceLifecycleExample`.
        "docs/Lifetimes.md: import Katana": "Examples/ServiceLifecycleExample/Sources/StoreService/StoreService.swift",
        // The Tools package's tests: a store whose tracer blocks, with a limit and its count.
        "docs/Tracing.md: let tracing = StoreTracing(pendingSpanLimit: 10_000)": "Tools/Tests/KatanaTracingTests/SlowTracerTests.swift",
        // Its own package, built against swift-otel: `swift test --package-path Examples/TracedService`.
        "docs/Tracing.md: var configuration = OTel.Configuration.default":
            "Examples/TracedService/Sources/traced-service/TracedServiceMain.swift",
    ]

    /// Snippets a test holds line for line in a form the plain search cannot see (split between a
    /// file-scope declaration and a test body), and that test.
    static let checkedByTest: [String: String] = [
        "README.md: import Katana": "Tests/KatanaTests/Documentation/FirstStoreTests.swift",
    ]

    /// Snippets that are not compiled, and why.
    static let notCompiled: [String: String] = [
        "README.md: dependencies: [": "a client's Package.swift; its package identities are checked below",
        "docs/Testing.md: .testTarget(name: \"AppTests\", dependencies: [": "a client's Package.swift",
        "docs/LoggingAndMetrics.md: dependencies: [": "a client's Package.swift",
        "docs/Tracing.md: .product(name: \"KatanaTracing\", package: \"Tools\"),": "a line of a client's Package.swift",
        "docs/Testing.md: @testable import App": "imports a client's app module",
        "docs/StoreAndThreading.md: let logger = DispatchableLogger.interceptor(blackList: [Increment.self]) { line in":
            "routes lines to a service's own log (`myServiceLog`); DispatchableLoggerTests covers the logger",
    ]

    @Test func everySnippetIsCompiledOrAccountedFor() throws {
        let sources = try Self.swiftSources().map { normalisedLines($0) }
        var unaccounted: [String] = []
        var usedKeys: Set<String> = []
        var count = 0
        for path in Self.documents {
            for block in MarkdownDocument.swiftBlocks(in: try MarkdownDocument(path).text) {
                let lines = normalisedLines(block.joined(separator: "\n"))
                guard let first = lines.first else { continue }
                count += 1
                let key = "\(path): \(first)"
                if let file = Self.adaptedCopies[key] ?? Self.checkedByTest[key] {
                    usedKeys.insert(key)
                    let root = MarkdownDocument.packageRoot
                    #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path), "\(key): no \(file)")
                } else if Self.notCompiled[key] != nil {
                    usedKeys.insert(key)
                } else if !sources.contains(where: { containsLines($0, lines) }) {
                    unaccounted.append("\(key) (\(lines.count) lines)")
                }
            }
        }
        #expect(count >= 15)
        #expect(unaccounted.isEmpty, "snippets neither found in a Swift file nor listed:\n\(unaccounted.joined(separator: "\n"))")
        let listed = Set(Self.adaptedCopies.keys).union(Self.checkedByTest.keys).union(Self.notCompiled.keys)
        let stale = listed.subtracting(usedKeys)
        #expect(stale.isEmpty, "listed snippets no longer in the documents: \(stale.sorted())")
    }

    /// The installation snippet names the products by the dependency's identity (the last path
    /// component of its path), which SwiftPM requires, and the test target snippet of docs/Testing.md
    /// uses the same identity.
    @Test func installation_namesTheDependencyByItsIdentity() throws {
        let readme = try MarkdownDocument("README.md")
        let installation = try #require(readme.section("Installation"), "README has no Installation section")
        let manifest = try #require(MarkdownDocument.swiftBlocks(in: installation).first).joined(separator: "\n")
        let path = try #require(manifest.firstMatch(of: /\.package\(path: "([^"]+)"\)/)?.output.1)
        let identity = String(path.split(separator: "/").last ?? "").lowercased()
        let named = manifest.matches(of: /package: "([^"]+)"\)/).map { String($0.output.1).lowercased() }
        #expect(named.count == 6)
        #expect(named.allSatisfy { $0 == identity }, "\(named) should all be \(identity)")
        let testing = try MarkdownDocument("docs/Testing.md").text
        #expect(testing.contains(".product(name: \"KatanaTesting\", package: \"\(identity)\")"))
    }

    /// The Swift files under Tests/, Examples/ and the Tools package's Tests/ (build folders left out).
    private static func swiftSources() throws -> [String] {
        let root = MarkdownDocument.packageRoot
        var texts: [String] = []
        for folder in ["Tests", "Examples", "Tools/Tests"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
            while let relative = walker.nextObject() as? String {
                if relative.hasPrefix(".build") || relative.contains("/.build") {
                    walker.skipDescendants()  // a build folder holds thousands of files
                    continue
                }
                if relative.hasSuffix(".swift") {
                    texts.append(try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8))
                }
            }
        }
        return texts
    }
}
