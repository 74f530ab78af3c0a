import Foundation
import Katana

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sends a signal to this very process: how the scripted tour plays the operator.
struct SendSignal: SideEffect {
    let signal: Int32
    let name: String

    func sideEffect(_ context: SideEffectContext<DemoState, DemoDependencies>) throws {
        DemoLog.info("tour: sending \(name) to myself (pid \(getpid()))")
        kill(getpid(), signal)
    }
}
