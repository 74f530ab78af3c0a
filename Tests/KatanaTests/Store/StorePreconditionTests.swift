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
