import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The demo executable, run as a child process whose standard error (the log) and standard output
/// are collected. Every wait is bounded.
final class DemoProcess: @unchecked Sendable {
    // @unchecked: `log`, `printed` and `openPipes` are only touched while holding `lock`; `process`
    // is configured before it starts and only queried afterwards.
    private let process = Process()
    private let lock = NSLock()
    private var log = Data()
    private var printed = Data()
    /// The output pipes that have not reached their end yet.
    private var openPipes = 2

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
    private func collect(into text: ReferenceWritableKeyPath<DemoProcess, Data> & Sendable) -> Pipe {
        let pipe = Pipe()
        let reading = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(reading.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                lock.withLock { self[keyPath: text].append(contentsOf: buffer[..<count]) }
            }
            lock.withLock { openPipes -= 1 }
        }
        return pipe
    }

    var pid: Int32 {
        process.processIdentifier
    }

    /// Everything the demo has logged so far (its standard error).
    var output: String {
        String(decoding: lock.withLock { log }, as: UTF8.self)
    }

    /// Everything the demo has printed so far on its standard output.
    var standardOutput: String {
        String(decoding: lock.withLock { printed }, as: UTF8.self)
    }

    /// Waits until the log satisfies `condition`; false if `timeout` passes or the process ends
    /// (and its output has been read) first.
    func waitForLog(timeout: Duration = .seconds(60), until condition: (String) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let (data, ended) = lock.withLock { (log, openPipes == 0) }
            if condition(String(decoding: data, as: UTF8.self)) { return true }
            if ended { return false }
            usleep(5_000)
        }
        return false
    }

    /// Waits until the log contains `text`; false if `timeout` passes or the process ends first.
    func waitForLog(_ text: String, timeout: Duration = .seconds(60)) -> Bool {
        waitForLog(timeout: timeout) { $0.contains(text) }
    }

    /// The same wait from a test task: it sleeps between looks instead of blocking, so it does not
    /// hold one of Swift concurrency's few threads (as many as cores) that every test runs on.
    func waitForLog(timeout: Duration = .seconds(60), until condition: (String) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (data, ended) = lock.withLock { (log, openPipes == 0) }
            if condition(String(decoding: data, as: UTF8.self)) { return true }
            if ended || ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits, from a test task, until the log contains `text`; false if `timeout` passes or the
    /// process ends first.
    func waitForLog(_ text: String, timeout: Duration = .seconds(60)) async -> Bool {
        await waitForLog(timeout: timeout) { $0.contains(text) }
    }

    /// Waits for the process to exit and for the end of its output; returns its exit status. Kills
    /// it and throws after `timeout`.
    func waitForExit(timeout: Duration = .seconds(60)) throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning || lock.withLock({ openPipes > 0 }) {
            if ContinuousClock.now > deadline {
                kill(process.processIdentifier, SIGKILL)
                throw Failure(description: "katana-service-demo did not exit within \(timeout); log so far:\n\(output)")
            }
            usleep(5_000)
        }
        return process.terminationStatus
    }

    /// How the process ended: by exiting (with `waitForExit`'s status) or by an uncaught signal.
    var endedBySignal: Bool {
        process.terminationReason == .uncaughtSignal
    }

    /// Runs the demo to completion; returns its exit status, log and standard output.
    static func run(_ arguments: [String], timeout: Duration = .seconds(60)) throws -> (status: Int32, log: String, printed: String) {
        let demo = try DemoProcess(arguments)
        let status = try demo.waitForExit(timeout: timeout)
        return (status, demo.output, demo.standardOutput)
    }

    /// A JSON file in the temporary directory holding `json`, for `--config`; removed by the caller.
    static func temporaryConfiguration(_ json: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("katana-demo-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: file)
        return file
    }

    /// Runs `body`, which blocks (it waits for processes), on a thread of its own rather than on one
    /// of the few threads that run the tests' tasks.
    static func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try body() })
            }
        }
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
