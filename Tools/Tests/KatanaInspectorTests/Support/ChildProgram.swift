import Foundation
import KatanaTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program built next to these tests (`katana-inspector`, `katana-inspected-demo`) run as a
/// child process, as a user runs it: what it prints on one stream goes to a file the test reads
/// as it grows, the other stream to a file of its own, kept for ``endReport``. Nothing signals a
/// child's output or its end, so the waits on them poll. Stop it when done
/// (`defer { program.stop() }`): it is killed if it runs.
struct ChildProgram {
    /// Which of its streams the test reads.
    enum Printing {
        case standardOutput, standardError
    }

    let process: Process
    /// The file what it prints goes to.
    let output: URL
    /// The file its other stream goes to.
    let otherOutput: URL

    /// The program `name` built next to these tests.
    static func built(_ name: String) throws -> URL {
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let url = URL(fileURLWithPath: testBinary).deletingLastPathComponent().appendingPathComponent(name)
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "build \(name) first")
        return url
    }

    /// Starts `executable` with `arguments`, what it writes on `printing` going to a file.
    static func start(_ executable: URL, _ arguments: [String], printing: Printing = .standardOutput) throws -> ChildProgram {
        let output = temporaryFile("\(executable.lastPathComponent)-output")
        let otherOutput = temporaryFile("\(executable.lastPathComponent)-other-output")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: otherOutput.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let file = try FileHandle(forWritingTo: output)
        let otherFile = try FileHandle(forWritingTo: otherOutput)
        process.standardOutput = printing == .standardOutput ? file : otherFile
        process.standardError = printing == .standardError ? file : otherFile
        do {
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: otherOutput)
            throw error
        }
        return ChildProgram(process: process, output: output, otherOutput: otherOutput)
    }

    /// What it has printed so far.
    var printed: String {
        (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }

    /// Whether it still runs, or how it ended, with the end of what it wrote on both streams: for
    /// a test's message when the program ended before the test was done with it.
    var endReport: String {
        let state = process.isRunning
            ? "still running"
            : "ended (\(process.terminationReason == .uncaughtSignal ? "signal" : "exit status") \(process.terminationStatus))"
        let other = (try? String(contentsOf: otherOutput, encoding: .utf8)) ?? ""
        return "\(process.executableURL?.lastPathComponent ?? "the program") \(state); it printed: \(printed.suffix(1_000)); on its other stream: \(other.suffix(2_000))"
    }

    /// The CPU time (user and system) it has used, from `/proc/<pid>/stat`; when it has ended,
    /// ``Ended``, which says how, with what it wrote.
    func cpuTime() throws -> Duration {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              process.isRunning else {
            throw Ended(report: endReport)
        }
        // The fields after the command name (which may hold spaces) end with ')'.
        let fields = try #require(stat.split(separator: ")").last).split(separator: " ")
        // utime and stime are the 14th and 15th fields, the 12th and 13th after the name.
        let ticks = try #require(Int(fields[11])) + (try #require(Int(fields[12])))
        let perSecond = sysconf(Int32(_SC_CLK_TCK))
        return .milliseconds(ticks * 1000 / max(perSecond, 1))
    }

    /// The program ended while a test still needed it.
    struct Ended: Error, CustomStringConvertible {
        /// How it ended, and what it wrote (``endReport``).
        let report: String
        var description: String { report }
    }

    /// Suspends until it has printed `text`, naming `what` if it has not within `timeout`.
    func untilItPrints(_ text: String, _ what: String, timeout: Duration = defaultTestTimeout) async throws {
        try await poll(what, timeout: timeout) { printed.contains(text) }
    }

    /// Suspends until it has ended.
    func untilItEnds(timeout: Duration = defaultTestTimeout) async throws {
        try await poll("\(process.executableURL?.lastPathComponent ?? "the program") to end", timeout: timeout) { !process.isRunning }
    }

    /// Kills it if it still runs, and removes what it printed.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: output)
        try? FileManager.default.removeItem(at: otherOutput)
    }
}
