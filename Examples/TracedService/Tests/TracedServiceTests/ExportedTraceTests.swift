import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import KatanaTestSupport
import Testing

/// The order and payment services as two processes, exporting with swift-otel to a collector the
/// test serves: a scripted request, sent with a W3C `traceparent`, leaves one trace across both
/// processes — request → PlaceOrder → its side effect → Reserve, the HTTP call, Confirm, and in the
/// payment service, the call's request → Charge.
@Suite struct ExportedTraceTests {
    /// A random id of `bytes` bytes, in hex.
    static func randomID(bytes: Int) -> String {
        (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    @Test func aRequestsSpansFromBothServicesJoinInOneTrace() async throws {
        let collector = OTLPCollector()
        try await collector.application().test(.live) { client in
            let collectorPort = try #require(client.port)
            try await ServiceProcess.running(["payments"], collectorPort: collectorPort) { payments in
                try await ServiceProcess.running(
                    ["orders", "--payments", "http://127.0.0.1:\(payments.port)"], collectorPort: collectorPort
                ) { orders in
                    try await Self.placeAnOrder(through: orders, seenBy: collector)
                }
            }
        }
    }

    /// Sends the scripted request to the order service and checks the trace the collector received.
    static func placeAnOrder(through orders: ServiceProcess, seenBy collector: OTLPCollector) async throws {
        let traceID = Self.randomID(bytes: 16)
        let callerSpanID = Self.randomID(bytes: 8)
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(orders.port)/orders?id=A17")
        request.method = .POST
        request.headers.add(name: "traceparent", value: "00-\(traceID)-\(callerSpanID)-01")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 16)
        #expect(response.status == .ok)
        #expect(String(buffer: body) == "placed A17")

        // The last spans to end are the payment service's Charge and the order's Confirm.
        try await poll("both services' spans of the request to be exported") {
            let names = Set(try collector.spans().filter { $0.traceID == traceID }.map(\.name))
            return names.isSuperset(of: ["Charge", "Confirm", "PlaceOrder side effect"])
        }
        let spans = try collector.spans().filter { $0.traceID == traceID }
        func only(_ service: String, _ matches: (ExportedSpan) -> Bool) throws -> ExportedSpan {
            let found = spans.filter { $0.service == service && matches($0) }
            try #require(found.count == 1, "one such span of \(service) among \(spans)")
            return found[0]
        }
        let orderRequest = try only("orders") { $0.kind == .server }
        #expect(orderRequest.parentSpanID == callerSpanID)
        let placeOrder = try only("orders") { $0.name == "PlaceOrder" }
        #expect(placeOrder.parentSpanID == orderRequest.spanID)
        #expect(placeOrder.attributes["katana.item.kind"] == "asyncSideEffect")
        let sideEffect = try only("orders") { $0.name == "PlaceOrder side effect" }
        #expect(sideEffect.parentSpanID == placeOrder.spanID)
        #expect(sideEffect.attributes["katana.side_effect.outcome"] == "succeeded")
        let reserve = try only("orders") { $0.name == "Reserve" }
        let confirm = try only("orders") { $0.name == "Confirm" }
        let call = try only("orders") { $0.kind == .client }
        #expect([reserve, call, confirm].allSatisfy { $0.parentSpanID == sideEffect.spanID })

        // The second process continued the trace from the call's traceparent header.
        let chargeRequest = try only("payments") { $0.kind == .server }
        #expect(chargeRequest.parentSpanID == call.spanID)
        let charge = try only("payments") { $0.name == "Charge" }
        #expect(charge.parentSpanID == chargeRequest.spanID)
        #expect(charge.attributes["katana.item.kind"] == "updater")
    }

    @Test func aChargeThatFailsEndsTheSideEffectsExportedSpanAsFailed() async throws {
        let collector = OTLPCollector()
        try await collector.application().test(.live) { client in
            let collectorPort = try #require(client.port)
            // The collector answers 404 to POST /charges: the payment service refuses every charge.
            try await ServiceProcess.running(
                ["orders", "--payments", "http://127.0.0.1:\(collectorPort)"], collectorPort: collectorPort
            ) { orders in
                let traceID = Self.randomID(bytes: 16)
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(orders.port)/orders?id=B2")
                request.method = .POST
                request.headers.add(name: "traceparent", value: "00-\(traceID)-\(Self.randomID(bytes: 8))-01")
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
                #expect(response.status == .badGateway)

                try await poll("the failed side effect's span to be exported") {
                    try collector.spans().contains { $0.traceID == traceID && $0.name == "PlaceOrder side effect" }
                }
                let spans = try collector.spans().filter { $0.traceID == traceID }
                let sideEffect = try #require(spans.first { $0.name == "PlaceOrder side effect" })
                #expect(sideEffect.attributes["katana.side_effect.outcome"] == "failed")
                #expect(sideEffect.statusCode == .error)
                #expect(spans.map(\.name).contains("Reserve"))
                #expect(!spans.map(\.name).contains("Confirm"))
            }
        }
    }
}
