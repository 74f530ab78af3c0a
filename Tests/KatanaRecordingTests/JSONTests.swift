import Foundation
@testable import KatanaRecording
import Testing

/// The recording's JSON: values encoded without text match what JSONEncoder and JSONDecoder make,
/// the writer's text reads back as the same value, and changes between two values rebuild the
/// second from the first.
@Suite struct JSONTests {
    struct Sample: Codable, Equatable {
        enum Mode: String, Codable { case fast, slow }
        struct Nested: Codable, Equatable {
            var tags: Set<String>
            var scores: [String: Double]
        }
        var id: Int
        var big: UInt64
        var ratio: Double
        var whole: Double
        var flag: Bool
        var name: String
        var tricky: String
        var optional: Int?
        var missing: String?
        var mode: Mode
        var date: Date
        var data: Data
        var url: URL
        var list: [Nested]
        var byNumber: [Int: String]
        var nothing: [Int]
    }

    static let sample = Sample(
        id: -42, big: UInt64(Int64.max), ratio: 0.1, whole: 2, flag: true, name: "ünïcødé ✓", tricky: "quote \" slash / back \\ tab \t nl \n bell \u{07}",
        optional: 7, missing: nil, mode: .slow, date: Date(timeIntervalSinceReferenceDate: 123.5), data: Data([0, 1, 254, 255]),
        url: URL(fileURLWithPath: "/tmp/a b"), list: [.init(tags: ["b", "a"], scores: ["x": 1.25, "y": -3])], byNumber: [3: "three", 1: "one"],
        nothing: []
    )

    @Test func encodingWithoutTextGivesWhatJSONEncoderGives() throws {
        let direct = try JSONValue(encoding: Self.sample)
        let viaText = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(Self.sample))
        #expect(direct == viaText)
        #expect(try direct.decode(as: Sample.self) == Self.sample)
    }

    @Test func theWritersTextReadsBackAsTheSameValue() throws {
        let value = try JSONValue(encoding: Self.sample)
        var bytes: [UInt8] = []
        JSONWriter.write(value, into: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(bytes)) == value)
        // Keys sorted, slashes not escaped, control characters escaped.
        #expect(text.hasPrefix(#"{"big":9223372036854775807,"byNumber":{"1":"one","3":"three"},"data":"AAH+/w==","date":123.5,"flag":true,"id":-42,"#))
        #expect(text.contains(#""tricky":"quote \" slash / back \\ tab \t nl \n bell \u0007""#))
        #expect(!text.contains("missing"))
    }

    @Test func aNumberThatIsNotFiniteIsAnError() {
        #expect(throws: EncodingError.self) { try JSONValue(encoding: [Double.nan]) }
    }

    @Test func changesRebuildTheNewValueFromTheOld() throws {
        var generator = SystemRandomNumberGenerator()
        func random(depth: Int) -> JSONValue {
            let pick = depth > 2 ? Int.random(in: 0 ..< 4, using: &generator) : Int.random(in: 0 ..< 6, using: &generator)
            switch pick {
            case 0: return .integer(Int64.random(in: 0 ..< 5, using: &generator))
            case 1: return .string(["a", "b", "c"].randomElement(using: &generator) ?? "a")
            case 2: return .bool(Bool.random(using: &generator))
            case 3: return .null
            case 4: return .array((0 ..< Int.random(in: 0 ..< 4, using: &generator)).map { _ in random(depth: depth + 1) })
            default:
                var fields: [String: JSONValue] = [:]
                for key in ["x", "y", "z"] where Bool.random(using: &generator) {
                    fields[key] = random(depth: depth + 1)
                }
                return .object(fields)
            }
        }
        for _ in 0 ..< 300 {
            let old = random(depth: 0)
            let new = random(depth: 0)
            let patch = JSONPatch(from: old, to: new)
            #expect(try patch.applied(to: old) == new, "\(old) -> \(new) with \(patch.operations)")
            #expect(JSONPatch(from: new, to: new).operations.isEmpty)
        }
    }

    @Test func aPatchAppliedToAnotherValueIsAMismatch() {
        let patch = JSONPatch(from: .object(["a": .object(["b": .integer(1)])]), to: .object(["a": .object(["b": .integer(2)])]))
        #expect(throws: JSONPatch.Mismatch.self) { try patch.applied(to: .object(["c": .null])) }
    }
}
