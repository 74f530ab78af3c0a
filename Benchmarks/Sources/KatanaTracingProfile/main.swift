import Foundation
import InMemoryTracing
import Katana
import KatanaBenchmarkSupport
import KatanaTracing
import Tracing

// What correlation costs per item, as a plain program for valgrind (instructions-per-item.sh with
// PROFILE_PROGRAM=KatanaTracingProfile). Every workload is the updaters burst of KatanaProfile,
// dispatched inside a task-local value, on a store:
//   updaters          without a dispatch context (this program's own baseline);
//   updaters-context  whose dispatch context captures that one task-local;
//   traced-noop       traced by StoreTracing with the `serviceContext` dispatch context and a
//                     tracer that makes no-op spans;
//   traced-memory     the same with swift-distributed-tracing's in-memory tracer, which keeps
//                     every span it is given.
let arguments = ProfileArguments(defaultWorkload: "updaters")

/// The task-local the context workloads capture: what a request handler would have set.
enum Request {
    @TaskLocal static var id: UInt64 = 0
}

/// A context holding the request's id, as a tracing context would hold a span.
let requestContext = DispatchContext(
    capture: { Request.id },
    restore: { value, body in Request.$id.withValue(value as? UInt64 ?? 0) { body() } },
    restoreAsync: { value, body in await Request.$id.withValue(value as? UInt64 ?? 0) { await body() } }
)

/// Runs the burst of `count` items inside a request's task-local value.
func burstInRequest(_ store: BenchStore, count: Int) {
    Request.$id.withValue(42) {
        burst(store, count: count)
    }
}

switch arguments.workload {
case "updaters":
    burstInRequest(BenchStore(interceptors: Interceptors([])), count: arguments.count)
case "updaters-context":
    burstInRequest(BenchStore(interceptors: Interceptors([]), configuration: .init(dispatchContext: requestContext)), count: arguments.count)
case "traced-noop":
    let tracing = StoreTracing(tracer: NoOpTracer())
    burstInRequest(BenchStore(interceptors: Interceptors { tracing }, configuration: .init(dispatchContext: .serviceContext)), count: arguments.count)
case "traced-memory":
    let tracer = InMemoryTracer()
    let tracing = StoreTracing(tracer: tracer, pendingSpanLimit: arguments.count)
    burstInRequest(BenchStore(interceptors: Interceptors { tracing }, configuration: .init(dispatchContext: .serviceContext)), count: arguments.count)
    check(tracing.droppedSpanCount == 0, "\(tracing.droppedSpanCount) spans were dropped")
default:
    print("unknown workload \(arguments.workload): updaters, updaters-context, traced-noop or traced-memory")
    exit(2)
}
