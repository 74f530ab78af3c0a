import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The demo executable, run as a child process whose standard error (the log) is collected.
final class DemoProcess: @unchecked Sendable {
    // @unchecked: `log` is only touched while holding `lock`; `process` is configured before it
    // starts and only queried afterwards.
    private let process = Process()
    private let lock = NSLock()
    private var log = ""

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
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard !data.isEmpty else { return }
            self?.lock.withLock { self?.log += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    var pid: Int32 {
        process.processIdentifier
    }

    /// Everything the demo has logged so far.
    var output: String {
        lock.withLock { log }
    }

    /// Waits until the log contains `text`; false if `timeout` passes or the process ends first.
    func waitForLog(_ text: String, timeout: Duration = .seconds(60)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if output.contains(text) { return true }
            if !process.isRunning {
                usleep(50_000)  // let the last output arrive
                return output.contains(text)
            }
            usleep(10_000)
        }
        return false
    }

    /// Waits for the process to exit and returns its exit status; kills it and throws after `timeout`.
    func waitForExit(timeout: Duration = .seconds(60)) throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                kill(process.processIdentifier, SIGKILL)
                throw Failure(description: "katana-service-demo did not exit within \(timeout); log so far:\n\(output)")
            }
            usleep(10_000)
        }
        usleep(50_000)  // let the last output arrive
        return process.terminationStatus
    }

    /// Runs the demo to completion; returns its exit status and log.
    static func run(_ arguments: [String], timeout: Duration = .seconds(60)) throws -> (status: Int32, log: String) {
        let demo = try DemoProcess(arguments)
        let status = try demo.waitForExit(timeout: timeout)
        return (status, demo.output)
    }
}

extension String {
    /// The integer after `key=` in the last line that has it, e.g. `ticks=3`.
    func value(after key: String) -> Int? {
        guard let range = range(of: "\(key)=", options: .backwards) else { return nil }
        return Int(self[range.upperBound...].prefix { $0.isNumber })
    }

    var nonEmptyLines: [Substring] {
        split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}
