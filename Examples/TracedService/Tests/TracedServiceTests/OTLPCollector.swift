import Foundation
import Hummingbird
import KatanaTestSupport

/// An OTLP/HTTP endpoint on a loopback port, served by the test: it keeps the body of every
/// `POST /v1/traces` and answers as a collector does (an empty JSON response).
struct OTLPCollector {
    /// The export requests' bodies, in the order they came.
    let exports = LockedList<Data>()

    /// The server; its port is the live test client's.
    func application() -> some ApplicationProtocol {
        let router = Router()
        router.post("v1/traces") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            exports.append(Data(body.readableBytesView))
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "{}"))
            )
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// Every span received so far.
    func spans() throws -> [ExportedSpan] {
        try exports.all.flatMap { try ExportedSpan.spans(inExport: $0) }
    }
}
