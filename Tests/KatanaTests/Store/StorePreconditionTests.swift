import Foundation
import Testing
import TestProgramSupport

/// A build of `katana-precondition-probe`: the debug one next to the tests, and in CI also the
/// release one (`KATANA_PRECONDITION_PROBE`, built with `swift build -c release`).
struct ProbeBuild: CustomTestStringConvertible, Sendable {
    let name: String
    let program: TestProgram

    var testDescription: String { name }

    static var all: [ProbeBuild] {
        var builds: [ProbeBuild] = []
        if let debug = TestProgram(builtNextToTheTests: "katana-precondition-probe") {
            builds.append(ProbeBuild(name: "as built for the tests", program: debug))
        }
        if let path = ProcessInfo.processInfo.environment["KATANA_PRECONDITION_PROBE"] {
            builds.append(ProbeBuild(name: "optimised (\(path))", program: TestProgram(url: URL(fileURLWithPath: path))))
        }
        return builds
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

/// Runs the probe with `mode` (see `TestProgram.run` for how it waits and what it turns off).
private func run(_ build: ProbeBuild, _ mode: String, timeout: Duration = .seconds(60)) async throws -> ProbeRun {
    let run = try await build.program.run([mode], timeout: timeout)
    let ranToItsEnd = run.exitCode.map { [0, 3].contains($0) } ?? false
    return ProbeRun(stopped: !run.hung && !ranToItsEnd, errorOutput: run.errorOutput)
}

/// A documented programming error: the probe's mode that makes it, and what the message that
/// stops the process must say.
enum ProgrammingError: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case readingStateBeforeReady = "before-ready"
    case readingStoreStateInsideItsOwnUpdater = "inside-updater"
    case readingThroughTheDependenciesInsideAnUpdater = "through-dependencies"

    var testDescription: String { "\(self)" }

    var messageSays: [String] {
        switch self {
        case .readingStateBeforeReady:
            ["the store's state was read before the store was ready", "Check `isReady` first"]
        case .readingStoreStateInsideItsOwnUpdater:
            ["read from inside one of its own state updaters", "Use the `inout` state the updater is given"]
        case .readingThroughTheDependenciesInsideAnUpdater:
            ["read from inside one of its own state updaters"]
        }
    }
}

/// The store's documented programming errors stop the process with a message that names the fix,
/// in every build (an optimised `precondition` would drop its message).
@Suite struct StorePreconditionTests {
    @Test func theProbeIsBuiltNextToTheTests() {
        #expect(!ProbeBuild.all.isEmpty)
    }

    @Test(arguments: ProbeBuild.all, ProgrammingError.allCases)
    func aProgrammingError_stopsTheProcessWithItsMessage(build: ProbeBuild, error: ProgrammingError) async throws {
        let result = try await run(build, error.rawValue)
        #expect(result.stopped)
        for passage in error.messageSays {
            #expect(result.errorOutput.contains(passage))
        }
    }
}
