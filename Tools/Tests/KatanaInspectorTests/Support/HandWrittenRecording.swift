import Foundation
@testable import KatanaInspector
import KatanaRecording

/// A recording written line by line in a test, for what a store's session cannot be made to do
/// on cue: an end before its item, an end with no item, a time at a given fraction of a second.
/// States are not recorded; every item comes from outside and was handled.
struct HandWrittenRecording {
    /// The lines after the header, in order.
    private(set) var lines: [String] = []

    static let header = #"{"format":"katana-recording","version":2,"stateType":"App.State","stateEncoded":false,"started":1795750000}"#

    /// An item at `position` with `sequence`, recorded at `time` (seconds since 1970).
    mutating func item(_ position: UInt64, sequence: UInt64, type: String = "App.Search", kind: String = "sideEffect", time: Double = 1_795_750_001) {
        lines.append(Self.itemLine(position, sequence: sequence, type: type, kind: kind, time: time))
    }

    /// The end of the side effect with `sequence`: `outcome` is succeeded, failed or cancelled;
    /// `detail` is the error or what cancelled it.
    mutating func end(_ sequence: UInt64, _ outcome: String, _ detail: String? = nil, duration: Double = 0.25, began: Bool = true) {
        lines.append(Self.endLine(sequence, outcome, detail, duration: duration, began: began))
    }

    /// An item's line (see ``item(_:sequence:type:kind:time:)``).
    static func itemLine(_ position: UInt64, sequence: UInt64, type: String = "App.Search", kind: String = "sideEffect", time: Double = 1_795_750_001) -> String {
        #"{"position":\#(position),"sequence":\#(sequence),"time":\#(time),"origin":{"from":"outside"},"type":"\#(type)","#
            + #""kind":"\#(kind)","item":{},"replayable":true,"outcome":"handled"}"#
    }

    /// An end's line (see ``end(_:_:_:duration:began:)``), recorded at 1795750002 s.
    static func endLine(_ sequence: UInt64, _ outcome: String, _ detail: String? = nil, duration: Double = 0.25, began: Bool = true) -> String {
        var fields = #""end":\#(sequence),"type":"App.Search","time":1795750002,"outcome":"\#(outcome)","duration":\#(duration)"#
        if let detail {
            fields += outcome == "failed" ? #","error":"\#(detail)""# : #","cancelledBy":"\#(detail)""#
        }
        if !began {
            fields += #","began":false"#
        }
        return "{" + fields + "}"
    }

    /// The recording as a file's text.
    var text: String {
        ([Self.header] + lines).map { $0 + "\n" }.joined()
    }

    /// A history that reads the lines (a live one keeping `limit` items, when given).
    func history(liveLimit limit: Int? = nil) throws -> InspectorHistory {
        let reader = try RecordingReader(header: Data(Self.header.utf8), source: "hand-written")
        let history = InspectorHistory(reader: reader, live: limit != nil, limit: limit ?? .max)
        for (index, line) in lines.enumerated() {
            try history.read(Data(line.utf8), number: index + 2)
        }
        return history
    }

    /// Writes the recording to a new temporary file (the caller removes it).
    func file() -> URL {
        temporaryFile("hand-written", contents: Data(text.utf8))
    }
}
