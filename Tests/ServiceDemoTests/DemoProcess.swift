import Foundation
import KatanaTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The demo executable, run as a child process whose standard error (the log) and standard output
/// are collected. Every wait is bounded and suspends: a wait for the log is woken by each read from
/// the demo's pipes; its exit, which nothing signals, is polled.
final class DemoProcess: @unchecked Sendable {
    // @unchecked: `process` is configured before it starts and only queried afterwards; the rest
    // are constants of Sendable types.
    private let process = Process()

    private struct Output {
        var log = Data()
        var printed = Data()
        /// The output pipes that have not reached their end yet.
        var openPipes = 2
    }

    private let collected = LockedValue(Output())
    /// One entry per read from the demo's pipes, and per pipe that ends: what wakes a wait for the log.
    private let reads = LockedList<Int>()

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Where SwiftPM put the demo: next to the test bundle, in the same build directory.
    static func executableURL() throws -> URL {
        var candidates: [URL] = []
        if let testBinary = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: testBinary).deletingLastPathComponent())
        }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(contentsOf: Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() })
        for directory in candidates {
            let url = directory.appendingPathComponent("katana-service-demo")
            if FileManager.default.isExecutableFile(atPath: url.path) {
                return url
            }
        }
        throw Failure(description: "katana-service-demo was not found next to the tests in \(candidates.map(\.path))")
    }

    /// Starts the demo with `arguments`.
    init(_ arguments: [String]) throws {
        process.executableURL = try Self.executableURL()
        process.arguments = arguments
        process.standardOutput = collect(into: \.printed)
        process.standardError = collect(into: \.log)
        try process.run()
    }

    /// A pipe whose data is appended to the bytes at `text` until it ends. Read by a thread of its
    /// own with blocking reads, which see the end of the pipe reliably (a `readabilityHandler` was
    /// seen to miss it when many processes start at once).
    private func collect(into text: WritableKeyPath<Output, Data> & Sendable) -> Pipe {
        let pipe = Pipe()
        let reading = pipe.fileHandleForReading
        Thread.detachNewThread { [collected, reads] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(reading.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                collected.withLock { $0[keyPath: text].append(contentsOf: buffer[..<count]) }
                reads.append(count)
            }
            collected.withLock { $0.openPipes -= 1 }
            reads.append(0)
        }
        return pipe
    }

    var pid: Int32 {
        process.processIdentifier
    }

    /// Everything the demo has logged so far (its standard error).
    var output: String {
        String(decoding: collected.withLock { $0.log }, as: UTF8.self)
    }

    /// Everything the demo has printed so far on its standard output.
    var standardOutput: String {
        String(decoding: collected.withLock { $0.printed }, as: UTF8.self)
    }

    /// Suspends until the log satisfies `condition`, woken by each read; false if `timeout` passes
    /// or the process ends (and its output has been read) first.
    func waitForLog(timeout: Duration = .seconds(60), until condition: @escaping @Sendable (String) -> Bool) async -> Bool {
        let collected = collected
        _ = try? await reads.waitUntil("the demo's log", timeout: timeout) { _ in
            let (log, ended) = collected.withLock { (String(decoding: $0.log, as: UTF8.self), $0.openPipes == 0) }
            return condition(log) || ended
        }
        return condition(output)
    }

    /// Suspends until the log contains `text`; false if `timeout` passes or the process ends first.
    func waitForLog(_ text: String, timeout: Duration = .seconds(60)) async -> Bool {
        await waitForLog(timeout: timeout) { $0.contains(text) }
    }

    /// Waits for the process to exit and for the end of its output; returns its exit status. Kills
    /// it and throws after `timeout`.
    func waitForExit(timeout: Duration = .seconds(60)) async throws -> Int32 {
        let process = process
        let collected = collected
        do {
            try await poll("katana-service-demo to exit", timeout: timeout) {
                !process.isRunning && collected.withLock { $0.openPipes == 0 }
            }
        } catch {
            kill(process.processIdentifier, SIGKILL)
            throw Failure(description: "katana-service-demo did not exit within \(timeout); log so far:\n\(output)")
        }
        return process.terminationStatus
    }

    /// How the process ended: by exiting (with `waitForExit`'s status) or by an uncaught signal.
    var endedBySignal: Bool {
        process.terminationReason == .uncaughtSignal
    }

    /// Runs the demo to completion; returns its exit status, log and standard output.
    static func run(_ arguments: [String], timeout: Duration = .seconds(60)) async throws -> (status: Int32, log: String, printed: String) {
        let demo = try DemoProcess(arguments)
        let status = try await demo.waitForExit(timeout: timeout)
        return (status, demo.output, demo.standardOutput)
    }

    /// A JSON file in the temporary directory holding `json`, for `--config`; removed by the caller.
    static func temporaryConfiguration(_ json: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("katana-demo-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: file)
        return file
    }
}

extension String {
    /// The integer after `key=` in the last line that has it, e.g. `ticks=3`.
    func value(after key: String) -> Int? {
        number(after: "\(key)=")
    }

    /// The integer right after the last occurrence of `prefix`, e.g. `reload #1`.
    func number(after prefix: String) -> Int? {
        guard let range = range(of: prefix, options: .backwards) else { return nil }
        return Int(self[range.upperBound...].prefix { $0.isNumber })
    }

    var nonEmptyLines: [Substring] {
        split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// How many times `text` occurs.
    func occurrences(of text: String) -> Int {
        components(separatedBy: text).count - 1
    }

    /// The position of the first line that contains `text` among the non-empty lines, if any.
    func firstLine(containing text: String) -> Int? {
        nonEmptyLines.firstIndex { $0.contains(text) }
    }
}
