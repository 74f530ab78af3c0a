import Foundation

/// A markdown file of this package (the README, an article under `docs/`, a demo's README), read by
/// the tests that hold the documentation to the code: its sections, code blocks and links.
public struct MarkdownDocument: Sendable {
    /// The package's root folder (this file is `Tests/DocumentationSupport/MarkdownDocument.swift`).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The path from the package root, e.g. `docs/Lifetimes.md`.
    public let path: String
    /// The whole file.
    public let text: String

    /// Reads `path`, relative to the package root.
    public init(_ path: String) throws {
        self.path = path
        text = try String(contentsOf: Self.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The text under the heading `title` (any level, without the `#`s), up to the next heading of
    /// the same or a higher level; nil if there is no such heading.
    public func section(_ title: String) -> String? {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { Self.heading($0)?.title == title }),
              let level = Self.heading(lines[start])?.level
        else { return nil }
        let end = lines[(start + 1)...].firstIndex { line in Self.heading(line).map { $0.level <= level } ?? false }
        return lines[(start + 1)..<(end ?? lines.endIndex)].joined(separator: "\n")
    }

    /// The code blocks fenced with "```swift" in `text`, each as its lines (a block inside a list
    /// item is indented like the item's text, fence included).
    public static func swiftBlocks(in text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            let fence = line.trimmingCharacters(in: .whitespaces)
            if current == nil, fence.hasPrefix("```swift") {
                current = []
            } else if current != nil, fence.hasPrefix("```") {
                blocks.append(current ?? [])
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Every run of whitespace made one space, so a passage can be found however its lines wrap.
    public static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The targets of the document's inline links (`[text](target)`) that are not web addresses:
    /// paths relative to the document's folder, with an optional `#anchor`, or an `#anchor` alone.
    /// Links inside code blocks and code spans are left out.
    public var relativeLinks: [String] {
        var links: [String] = []
        var inFence = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            guard !inFence else { continue }
            let prose = line.split(separator: "`", omittingEmptySubsequences: false)
                .enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            for match in prose.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.output.1)
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                links.append(target)
            }
        }
        return links
    }

    /// The anchors GitHub gives the document's headings: lower-cased, punctuation other than `-`
    /// and `_` removed, spaces made `-`.
    public var anchors: Set<String> {
        var anchors: Set<String> = []
        var inFence = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if !inFence, let heading = Self.heading(line) {
                anchors.insert(Self.anchor(heading.title))
            }
        }
        return anchors
    }

    /// The anchor GitHub makes of a heading's title.
    public static func anchor(_ title: String) -> String {
        String(title.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
            return nil
        })
    }

    private static func heading(_ line: String) -> (level: Int, title: String)? {
        let level = line.prefix { $0 == "#" }.count
        guard level > 0, line.dropFirst(level).first == " " else { return nil }
        return (level, line.dropFirst(level + 1).trimmingCharacters(in: .whitespaces))
    }
}

/// Lines of code compared the way a snippet is quoted: each line trimmed, blank lines left out.
public func normalisedLines<S: StringProtocol>(_ text: S) -> [String] {
    text.components(separatedBy: "\n")
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
}

/// Whether `needle` appears in `haystack` as consecutive lines.
public func containsLines(_ haystack: [String], _ needle: [String]) -> Bool {
    guard !needle.isEmpty else { return true }
    guard needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains { start in
        haystack[start] == needle[0] && Array(haystack[start..<(start + needle.count)]) == needle
    }
}

/// The lines of a Swift file between each `// snippet: NAME` and the next `// end snippet` marker,
/// all such regions in order: how a test file holds a document's snippet when the snippet mixes
/// declarations with statements (types go at file scope, statements in a test body).
public func markedSnippet(_ name: String, inFile path: String) throws -> [String] {
    let source = try String(contentsOf: MarkdownDocument.packageRoot.appendingPathComponent(path), encoding: .utf8)
    var lines: [String] = []
    var inside = false
    for line in source.components(separatedBy: "\n") {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed == "// snippet: \(name)" {
            inside = true
        } else if trimmed == "// end snippet" {
            inside = false
        } else if inside {
            lines.append(line)
        }
    }
    return lines
}
