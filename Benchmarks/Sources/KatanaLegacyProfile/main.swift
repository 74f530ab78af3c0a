import Katana
import KatanaBenchmarkSupport
import KatanaLegacy

// A plain program running one Katana 2.x (KatanaLegacy) workload, without the benchmark harness,
// for profilers, next to KatanaProfile (which stays free of KatanaLegacy):
//   valgrind --tool=callgrind .build/release/KatanaLegacyProfile middleware 20000
// Workloads: middleware (ten pass-through 2.x middleware bridged with middlewareToInterceptor) and
// interceptors (ten pass-through closure interceptors, the same as KatanaProfile's), both in the
// `burst` shape, so that one binary measures the bridge against what it should cost.
let arguments = ProfileArguments(defaultWorkload: "middleware")
let workload = arguments.workload
let count = arguments.count


/// Ten 2.x middleware that pass every item on, each bridged to an interceptor; deprecated because
/// it measures the deprecated bridge on purpose.
@available(*, deprecated, message: "Measures the deprecated middleware bridge on purpose")
func bridgedPassThroughMiddleware() -> [StoreInterceptor] {
    let passThrough: StoreMiddleware = { _, _ in { next in { item in next(item) } } }
    return [StoreInterceptor](repeating: middlewareToInterceptor(passThrough), count: 10)
}

/// Runs a workload by name. A protocol, so that the top-level code below can run the deprecated
/// workloads through a generic call, which does not repeat their deprecation warning.
protocol WorkloadRunner {
    /// Runs the workload named `workload`, `count` items long.
    static func run(_ workload: String)
}

/// The workloads of this program.
enum LegacyWorkloads: WorkloadRunner {
    /// Runs `workload`; deprecated only because one of the workloads uses the deprecated bridge.
    @available(*, deprecated, message: "Runs the deprecated middleware bridge on purpose")
    static func run(_ workload: String) {
        switch workload {
        case "middleware":
            burst(BenchStore(interceptors: bridgedPassThroughMiddleware()), count: count)
        case "interceptors":
            let passThrough: StoreInterceptor = { _ in { next in { item in try next(item) } } }
            burst(BenchStore(interceptors: Array(repeating: passThrough, count: 10)), count: count)
        default:
            fatalError("unknown workload \(workload)")
        }
    }
}

/// Runs `workload` with `Runner`.
func start<Runner: WorkloadRunner>(_ workload: String, with _: Runner.Type) {
    Runner.run(workload)
}

start(workload, with: LegacyWorkloads.self)
print("\(workload): \(count) done")
