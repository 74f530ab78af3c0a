import Foundation
@testable import KatanaInspector
import KatanaTestSupport
import Logging
import Testing

/// What the inspector prints that came from a file or a client reaches the terminal with its
/// control characters written out, never raw.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreWrittenOutAndTheRestIsLeftAlone() {
        #expect(TerminalText.escaped("\u{1B}[2J\u{1B}[31mX\n") == #"\u{1B}[2J\u{1B}[31mX\n"#)
        #expect(TerminalText.escaped("a\tb\rc\u{0}d\u{7F}e\u{9B}f") == #"a\tb\rc\u{0}d\u{7F}e\u{9B}f"#)
        // Bidirectional overrides would reorder what follows them on the line.
        #expect(TerminalText.escaped("x\u{202E}y\u{2066}z\u{2028}") == #"x\u{202E}y\u{2066}z\u{2028}"#)
        #expect(TerminalText.escaped("session.jsonl, Zürich, 東京, 🙂") == "session.jsonl, Zürich, 東京, 🙂")
    }

    @Test func theServersLogIsEscapedBeforeItsHandlerSeesIt() {
        let captured = CapturedLog()
        var logger = Logger(label: "test") { _ in EscapingLogHandler(wrapping: captured) }
        logger.logLevel = .trace
        logger.warning("Host \u{1B}]0;owned\u{7}", metadata: ["host": "evil\u{1B}[2J", "list": ["\n"]])
        let event = captured.events.all.first
        #expect(event?.message.description == #"Host \u{1B}]0;owned\u{7}"#)
        #expect(event?.metadata?["host"]?.description == #"evil\u{1B}[2J"#)
        guard case .array(let list)? = event?.metadata?["list"] else {
            Issue.record("the list metadata is gone")
            return
        }
        #expect(list.map(\.description) == [#"\n"#])
    }

    @Test func katanaInspectorPrintsNoRawControlCharacterFromAFileOrItsArguments() async throws {
        let hostile = temporaryFile("hostile", contents: Data("\u{1B}[2J\u{1B}[31mX\n".utf8))
        defer { try? FileManager.default.removeItem(at: hostile) }
        let runs = [
            [hostile.path],
            [hostile.path.replacingOccurrences(of: "hostile", with: "missing\u{1B}[31m")],
            [hostile.path, "--port", "\u{1B}[2J"],
            [hostile.path, "--\u{1B}]0;title\u{7}"],
        ]
        for arguments in runs {
            let (status, errorOutput) = try await Self.run(arguments)
            #expect(status != 0)
            #expect(!errorOutput.isEmpty)
            let raw = errorOutput.filter { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F }
            #expect(raw.isEmpty, "raw control bytes \(raw) in: \(String(decoding: errorOutput, as: UTF8.self).debugDescription)")
        }
    }

    /// Runs `katana-inspector` with `arguments` until it ends (within 60 s); its status and what
    /// it wrote on standard error.
    static func run(_ arguments: [String]) async throws -> (Int32, [UInt8]) {
        let inspector = try ChildProgram.start(try ChildProgram.built("katana-inspector"), arguments, printing: .standardError)
        defer { inspector.stop() }
        try await inspector.untilItEnds(timeout: .seconds(60))
        return (inspector.process.terminationStatus, [UInt8](try Data(contentsOf: inspector.output)))
    }
}

/// A log handler that keeps what it is given.
struct CapturedLog: LogHandler {
    let events = LockedList<LogEvent>()
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        events.append(event)
    }
}
