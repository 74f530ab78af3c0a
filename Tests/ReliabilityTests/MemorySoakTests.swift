import Foundation
import Katana
import KatanaTestSupport
import TestProgramSupport
import Testing

extension ReliabilityStorms {
    /// Item 5: a million updater dispatches leave nothing behind per dispatch.
    ///
    /// The soak runs in a process of its own (`katana-memory-soak-probe`): the resident set is the
    /// whole process's, and in the test process the other targets' tests allocate while it runs
    /// (docs/RELIABILITY.md, "Running alongside the other test targets", says by how much).
    @Suite struct MemorySoakTests {
        /// The allowed growth of the probe's resident set over the soak, from the baseline taken after
        /// the warm-up. Leaking even one 16-byte allocation per dispatch would grow it by about 15 MiB
        /// (malloc rounds each to at least 32 bytes: ~30 MiB); a leaked promise or item (48+ bytes)
        /// by 45+ MiB. Under the thread sanitizer, where every heap byte also has shadow memory and the
        /// allocator caches more, the probe grows several times as much as in a plain build, so the
        /// bound there is larger. The growth measured (plain, under the sanitizer, and a probe that
        /// leaks, for contrast) is in docs/RELIABILITY.md, "Measured resident set (soak)", with the
        /// date: new measurements go there, not here.
        static var boundKiB: Int { isRunningUnderThreadSanitizer ? 20 * 1024 : 12 * 1024 }

        static let warmUp = 100_000
        static let soak = 1_000_000

        @Test func soak_1000000UpdaterDispatches_residentSetStaysWithinBound() async throws {
            let probe = try #require(TestProgram(builtNextToTheTests: "katana-memory-soak-probe"), "the probe is built next to the tests")
            let run = try await probe.run(["\(Self.warmUp)", "\(Self.soak)", "10000"], timeout: reliabilityTimeout + .seconds(60))
            #expect(!run.hung, "the soak did not end in time; output: \(run.output) \(run.errorOutput)")
            #expect(run.exitCode == 0, "the soak exited with \(run.exitCode.map(String.init) ?? "a signal"): \(run.errorOutput)")
            print("MemorySoak: tsan=\(isRunningUnderThreadSanitizer) \(run.output.trimmingCharacters(in: .whitespacesAndNewlines)), bound \(Self.boundKiB) KiB")

            let report = try #require(MemorySoakReport(run.output), "no MEMORY-SOAK line in: \(run.output)")
            let total = Self.warmUp + Self.soak
            #expect(report.finalState == "\(total)/\(total)")
            #expect(report.heard == total)
            #expect(report.growth.count == 11)
            #expect(report.growth.allSatisfy { $0 <= Self.boundKiB },
                    "RSS growth \(report.growth) KiB over baseline \(report.baseline) KiB exceeds \(Self.boundKiB) KiB")
        }

        /// The line the probe prints, read back.
        @Test func reportLine_isReadBack() throws {
            let report = try #require(MemorySoakReport("noise\nMEMORY-SOAK baseline=9000 growth=1,-2,30 final-state=5/5 heard=5\n"))
            #expect(report.baseline == 9000)
            #expect(report.growth == [1, -2, 30])
            #expect(report.finalState == "5/5")
            #expect(report.heard == 5)
            #expect(MemorySoakReport("MEMORY-SOAK baseline=x growth=1 final-state=5/5 heard=5") == nil)
        }
    }
}

/// What `katana-memory-soak-probe` reports: `MEMORY-SOAK baseline=… growth=…,… final-state=…/… heard=…`.
struct MemorySoakReport: Equatable {
    let baseline: Int
    let growth: [Int]
    let finalState: String
    let heard: Int

    init?(_ output: String) {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("MEMORY-SOAK ") }) else { return nil }
        var fields: [String: String] = [:]
        for field in line.split(separator: " ").dropFirst() {
            let parts = field.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            fields[String(parts[0])] = String(parts[1])
        }
        let growth = fields["growth"]?.split(separator: ",").map { Int($0) } ?? []
        guard let baseline = fields["baseline"].flatMap({ Int($0) }),
              let heard = fields["heard"].flatMap({ Int($0) }),
              let finalState = fields["final-state"],
              !growth.isEmpty, growth.allSatisfy({ $0 != nil })
        else { return nil }
        self.baseline = baseline
        self.growth = growth.compactMap { $0 }
        self.finalState = finalState
        self.heard = heard
    }
}
