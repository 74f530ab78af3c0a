import Foundation
import KatanaTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A test-only program built next to the tests (a probe), and a bounded way to run it.
public struct TestProgram: Sendable {
    /// Where the program is.
    public let url: URL

    /// The program at `url` (a build made elsewhere, say an optimised one).
    public init(url: URL) {
        self.url = url
    }

    /// The program `name` as built next to the test binary, or nil if it is not there.
    public init?(builtNextToTheTests name: String) {
        var directories: [URL] = []
        if let testBinary = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: testBinary).deletingLastPathComponent())
        }
        directories.append(contentsOf: Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() })
        guard let found = directories
            .map({ $0.appendingPathComponent(name) })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { return nil }
        url = found
    }

    /// Runs the program with `arguments`, killing it if it has not ended after `timeout`.
    ///
    /// Its output and error output go to files (a pipe could be held open by a crash reporter it
    /// starts), and the Swift runtime's backtracer is off, so a crash ends the process at once. The
    /// wait for its end is a `poll` (nothing signals a child's exit to the test), which suspends
    /// between looks instead of holding one of Swift concurrency's few threads.
    public func run(_ arguments: [String], timeout: Duration) async throws -> TestProgramRun {
        let directory = FileManager.default.temporaryDirectory
        let outputFile = directory.appendingPathComponent("\(url.lastPathComponent)-\(UUID().uuidString).out")
        let errorFile = directory.appendingPathComponent("\(url.lastPathComponent)-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()

        let ended = await Self.waitForEnd(of: process, timeout: timeout)
        if !ended {
            kill(process.processIdentifier, SIGKILL)
            _ = await Self.waitForEnd(of: process, timeout: .seconds(5))
        }
        func contents(_ file: URL) -> String {
            String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
        }
        return TestProgramRun(
            exitCode: ended && process.terminationReason == .exit ? process.terminationStatus : nil,
            terminatingSignal: ended && process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil,
            hung: !ended,
            output: contents(outputFile),
            errorOutput: contents(errorFile))
    }

    private static func waitForEnd(of process: Process, timeout: Duration) async -> Bool {
        (try? await poll("\(process.executableURL?.lastPathComponent ?? "the program") to end", timeout: timeout) { !process.isRunning }) != nil
    }
}

/// How a run of a test-only program ended, and what it wrote.
public struct TestProgramRun: Sendable {
    /// The exit code, if the program exited.
    public let exitCode: Int32?
    /// The signal that ended the program, if a signal did.
    public let terminatingSignal: Int32?
    /// Whether it was still running at the deadline (and was killed).
    public let hung: Bool
    /// Everything it wrote to standard output.
    public let output: String
    /// Everything it wrote to standard error.
    public let errorOutput: String
}
