import Foundation
import Testing

/// A build of `katana-precondition-probe`: the debug one next to the tests, and in CI also the
/// release one (`KATANA_PRECONDITION_PROBE`, built with `swift build -c release`).
struct ProbeBuild: CustomTestStringConvertible, Sendable {
    let name: String
    let url: URL

    var testDescription: String { name }

    static var all: [ProbeBuild] {
        var builds: [ProbeBuild] = []
        if let debug = nextToTheTests() {
            builds.append(ProbeBuild(name: "as built for the tests", url: debug))
        }
        if let path = ProcessInfo.processInfo.environment["KATANA_PRECONDITION_PROBE"] {
            builds.append(ProbeBuild(name: "optimised (\(path))", url: URL(fileURLWithPath: path)))
        }
        return builds
    }

    private static func nextToTheTests() -> URL? {
        var directories: [URL] = []
        if let testBinary = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: testBinary).deletingLastPathComponent())
        }
        directories.append(contentsOf: Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() })
        return directories
            .map { $0.appendingPathComponent("katana-precondition-probe") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

/// How a probe run ended.
private struct ProbeRun {
    /// The process was stopped: it neither ran to its end (exit 3: "the store did not stop the
    /// process") nor exited cleanly. (Under the thread sanitizer a crash ends as an exit with an
    /// error code instead of a signal.)
    let stopped: Bool
    let errorOutput: String
}

/// Runs the probe with `mode`, killing it if it has not ended after `timeout`. Its standard error
/// goes to a file (a pipe could be held open by a crash reporter it starts), and the Swift runtime's
/// backtracer is off, so the crash ends the process at once. It polls between sleeps of the test's
/// task, so the wait does not hold one of Swift concurrency's few threads, which every test runs on.
private func run(_ build: ProbeBuild, _ mode: String, timeout: Duration = .seconds(60)) async throws -> ProbeRun {
    let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("katana-probe-\(UUID().uuidString).txt")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    let process = Process()
    process.executableURL = build.url
    process.arguments = [mode]
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()
    let deadline = ContinuousClock.now + timeout
    while process.isRunning, ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(5))
    }
    if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        let grace = ContinuousClock.now + .seconds(5)
        while process.isRunning, ContinuousClock.now < grace {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
    let output = String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self)
    let ranToItsEnd = !process.isRunning && process.terminationReason == .exit && [0, 3].contains(process.terminationStatus)
    return ProbeRun(stopped: !process.isRunning && !ranToItsEnd, errorOutput: output)
}

/// The store's documented programming errors stop the process with a message that names the fix,
/// in every build (an optimised `precondition` would drop its message).
@Suite struct StorePreconditionTests {
    @Test func theProbeIsBuiltNextToTheTests() {
        #expect(!ProbeBuild.all.isEmpty)
    }

    @Test(arguments: ProbeBuild.all)
    func readingStateBeforeReady_stopsWithTheMessage(build: ProbeBuild) async throws {
        let result = try await run(build, "before-ready")
        #expect(result.stopped)
        #expect(result.errorOutput.contains("the store's state was read before the store was ready"))
        #expect(result.errorOutput.contains("Check `isReady` first"))
    }

    @Test(arguments: ProbeBuild.all)
    func readingStoreStateInsideItsOwnUpdater_stopsWithTheMessage(build: ProbeBuild) async throws {
        let result = try await run(build, "inside-updater")
        #expect(result.stopped)
        #expect(result.errorOutput.contains("read from inside one of its own state updaters"))
        #expect(result.errorOutput.contains("Use the `inout` state the updater is given"))
    }

    @Test(arguments: ProbeBuild.all)
    func readingThroughTheDependenciesInsideAnUpdater_stopsWithTheMessage(build: ProbeBuild) async throws {
        let result = try await run(build, "through-dependencies")
        #expect(result.stopped)
        #expect(result.errorOutput.contains("read from inside one of its own state updaters"))
    }
}
