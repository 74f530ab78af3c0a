import Foundation
@testable import KatanaRecording
import Testing

/// The reader's JSON parser: it reads what the writer and JSONEncoder write as the values they
/// were, and names what is wrong with anything else, without crashing on hostile text.
@Suite struct JSONParserTests {
    @Test func theWritersTextParsesAsTheValueItWasWrittenFrom() throws {
        let value = try JSONValue(encoding: JSONTests.sample)
        #expect(try JSONParser.parse(value.jsonText) == value)
        #expect(try JSONParser.parse(JSONEncoder().encode(JSONTests.sample)) == value)
    }

    @Test func itReadsAsJSONDecoderDoes() throws {
        let texts = [
            #"{"a":[1,-2,3.5,1e3,-0.25,2.5E-3,0,-0],"b":{"c":null,"d":true,"e":false},"f":"","g":[],"h":{}}"#,
            #"  [ "\u00e9\u4e2d\ud83d\ude00", "tab\tquote\"back\\slash\/", "\b\f\n\r" ]  "#,
            #"9007199254740993"#,
            #"[1.0, 12345678901234567890, 8.5e15, -9223372036854775808]"#,
        ]
        for text in texts {
            let parsed = try JSONParser.parse(Array(text.utf8))
            let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            #expect(parsed == decoded, "\(text)")
        }
        #expect(try JSONParser.parse(Array(#""\ud83d\ude00""#.utf8)) == .string("😀"))
        #expect(try JSONParser.parse(Array("2.0".utf8)) == .integer(2))
        // Unlike JSONDecoder, a whole number from 9e15 on written with an exponent stays a Double:
        // the encoder wrote it from one (smaller ones it writes as integers), and reads back as it.
        #expect(try JSONParser.parse(Array("1e16".utf8)) == .number(1e16))
        #expect(try JSONParser.parse(JSONValue(encoding: 1e16).jsonText) == JSONValue(encoding: 1e16))
    }

    @Test func randomValuesSurviveTheWriterAndTheParser() throws {
        var generator = SystemRandomNumberGenerator()
        func random(depth: Int) -> JSONValue {
            switch Int.random(in: 0 ..< (depth > 3 ? 5 : 7), using: &generator) {
            case 0: return .integer(Int64.random(in: Int64.min ... Int64.max, using: &generator))
            // A Double as the encoder makes it (a whole one below 9e15 is an integer).
            case 1: return (try? JSONValue(encoding: Double.random(in: -1e20 ... 1e20, using: &generator) / 8)) ?? .null
            case 2: return .string(String((0 ..< Int.random(in: 0 ..< 8, using: &generator)).map { _ in
                ["a", "é", "\"", "\\", "\n", "\u{01}", "😀", "/"].randomElement(using: &generator) ?? "a"
            }.joined()))
            case 3: return .bool(Bool.random(using: &generator))
            case 4: return .null
            case 5: return .array((0 ..< Int.random(in: 0 ..< 4, using: &generator)).map { _ in random(depth: depth + 1) })
            default:
                var fields: [String: JSONValue] = [:]
                for key in ["x", "ÿ", "\"z\""] where Bool.random(using: &generator) {
                    fields[key] = random(depth: depth + 1)
                }
                return .object(fields)
            }
        }
        for _ in 0 ..< 300 {
            let value = random(depth: 0)
            #expect(try JSONParser.parse(value.jsonText) == value, "\(value)")
        }
    }

    @Test func whatIsWrongIsNamedWithWhere() {
        let cases: [(String, String)] = [
            ("", "at byte 1: expected a value"),
            (#"{"a":1"#, "at byte 7: expected ',' or '}'"),
            (#"{"a" 1}"#, "at byte 6: expected ':' after a key"),
            (#"{a:1}"#, "at byte 2: expected a key in quotes"),
            (#"[1,]"#, "at byte 4: expected a value"),
            (#"[1] x"#, "at byte 5: expected the end of the text"),
            (#""abc"#, "expected the string's closing quote"),
            (#""\x""#, "at byte 3: expected an escape"),
            (#""\ud800""#, "expected the low half of a surrogate pair"),
            (#""\u12""#, "expected four hexadecimal digits"),
            ("\"a\u{01}b\"", "expected a control character written as an escape"),
            ("tru", "at byte 1: expected true"),
            ("-", "at byte 2: expected a digit"),
            ("1.", "at byte 3: expected a digit after '.'"),
            ("1e", "at byte 3: expected a digit in the exponent"),
            ("1e999", "at byte 1: expected a number a Double can hold"),
        ]
        for (text, expected) in cases {
            do {
                let value = try JSONParser.parse(Array(text.utf8))
                Issue.record("\(text) parsed as \(value)")
            } catch {
                #expect("\(error)".contains(expected), "\(text): \(error)")
            }
        }
    }

    @Test func nestingDeeperThanTheLimitIsAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParser.Problem.self) { try JSONParser.parse(Array(deep.utf8)) }
        let allowed = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(throws: Never.self) { try JSONParser.parse(Array(allowed.utf8)) }
    }
}
