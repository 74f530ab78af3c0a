import Foundation
import HummingbirdWebSocket
import KatanaRecording
import ServiceLifecycle

/// Sends a page the items recorded after the ones it has, then each new batch as it is recorded,
/// and the side effects' ends that come after their rows were sent, until the page goes away. It reads the shared history at its own pace, so a page that reads
/// slowly only falls behind itself; one that takes longer than `timeout` to accept a message is
/// dropped: its connection is closed.
struct LiveUpdates {
    /// Rows in one message at most.
    static let batchLimit = 5_000
    /// How often it looks for new items.
    static let pollInterval = Duration.milliseconds(100)

    let source: HistorySource
    let timeout: Duration
    /// Closes the page's connection, when it has not taken a message within `timeout`.
    let dropConnection: @Sendable () -> Void

    /// Sends the page, through `outbound`, what was recorded after position `after`, and the ends
    /// matched after the end cursor `endsAfter` of the rows it has, then what is recorded from now
    /// on; returns when the page closes the connection or was too slow.
    func send(after: UInt64, endsAfter: UInt64 = 0, inbound: WebSocketInboundStream, to outbound: WebSocketOutboundWriter) async throws {
        // Ends when the server shuts down, which otherwise waits for every page to go away.
        try await cancelWhenGracefulShutdown {
            try await relay(after: after, endsAfter: endsAfter, inbound: inbound, to: outbound)
        }
    }

    private func relay(after: UInt64, endsAfter: UInt64, inbound: WebSocketInboundStream, to outbound: WebSocketOutboundWriter) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Reading is what notices the page closing.
                for try await _ in inbound {}
            }
            group.addTask {
                try await sendUpdates(after: after, endsAfter: endsAfter, to: outbound)
            }
            _ = try await group.next()
            group.cancelAll()
        }
    }

    private func sendUpdates(after: UInt64, endsAfter: UInt64, to outbound: WebSocketOutboundWriter) async throws {
        var cursor = after
        var endCursor = endsAfter
        var gapsSent = Set<UInt64>()
        while !Task.isCancelled {
            if let history = source.history {
                let (summary, items) = history.items(from: cursor + 1, limit: Self.batchLimit)
                for gap in summary.gaps where gap.after > after && !gapsSent.contains(gap.after) {
                    gapsSent.insert(gap.after)
                    let message = JSONValue.object([
                        "type": .string("gap"), "after": .integer(Int64(gap.after)), "dropped": .integer(Int64(gap.dropped)),
                    ])
                    try await write(message, to: outbound)
                }
                if let last = items.last {
                    try await write(InspectorAPI.rows(items, ends: history.ends(of: items), summary: summary, type: "items"), to: outbound)
                    cursor = last.position
                }
                // Read after the rows: an end matched since the last look is sent here when its
                // row went earlier (or in the batch above without it), and carried by its row
                // when that is still to go.
                let (ends, nextEndCursor) = history.ends(after: endCursor, through: cursor, limit: Self.batchLimit)
                if !ends.isEmpty {
                    try await write(InspectorAPI.ends(ends, endCursor: nextEndCursor), to: outbound)
                }
                endCursor = nextEndCursor
                if items.count == Self.batchLimit || endCursor < history.endCursor { continue }
            }
            try await Task.sleep(for: Self.pollInterval)
        }
    }

    /// Writes one message, or throws ``SlowClient`` when the page has not taken it within `timeout`.
    private func write(_ message: JSONValue, to outbound: WebSocketOutboundWriter) async throws {
        let text = String(decoding: message.jsonText, as: UTF8.self)
        let timeout = timeout
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await outbound.write(.text(text))
                return true
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return false
            }
            let written = try await group.next() ?? false
            if !written {
                // Closed here, not by the WebSocket's closing handshake, whose close frame would
                // wait on the full socket for as long as the page reads nothing.
                dropConnection()
            }
            group.cancelAll()
            if !written { throw SlowClient() }
        }
    }

    /// A page that did not take a message in time.
    struct SlowClient: Error {}
}
