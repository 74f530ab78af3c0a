import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import OTel
import TracedService

/// Runs the order or the payment service with its spans exported by swift-otel.
///
/// The exporter is set up from the standard OTEL_* environment variables (OTEL_SERVICE_NAME,
/// OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_BSP_SCHEDULE_DELAY, ...); the
/// service's name defaults to its role. Only traces are exported: logs and metrics have
/// docs/LoggingAndMetrics.md's bridges. The program prints "listening on PORT" once it accepts
/// requests, and ends on SIGTERM or SIGINT, exporting the spans it still holds.
@main
enum TracedServiceMain {
    static func main() async {
        do {
            try await run(ServiceOptions(Array(CommandLine.arguments.dropFirst())))
        } catch {
            FileHandle.standardError.write(Data("traced-service: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ options: ServiceOptions) async throws {
        var configuration = OTel.Configuration.default
        configuration.serviceName = options.role.rawValue
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        let observability = try OTel.bootstrap(configuration: configuration)

        let address = BindAddress.hostname("127.0.0.1", port: options.port)
        let announce: @Sendable (any Channel) async -> Void = { channel in
            FileHandle.standardOutput.write(Data("listening on \(channel.localAddress?.port ?? options.port)\n".utf8))
        }
        switch options.role {
        case .payments:
            let store = Payments.makeStore()
            var app = Application(router: Payments.router(store: store), configuration: .init(address: address), onServerRunning: announce)
            app.addServices(observability)
            try await app.runService()
        case .orders:
            // Created after the bootstrap, so that it traces its requests with swift-otel's tracer.
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let payments = PaymentsClient(baseURL: options.payments, client: client)
            let store = Orders.makeStore(payments: payments)
            var app = Application(router: Orders.router(store: store), configuration: .init(address: address), onServerRunning: announce)
            app.addServices(observability)
            do {
                try await app.runService()
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }
}
