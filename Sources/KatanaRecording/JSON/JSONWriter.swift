/// Writes a ``JSONValue`` as compact JSON text with its object keys sorted, as `JSONEncoder` with
/// `.sortedKeys` and `.withoutEscapingSlashes` writes it: the text of a recording's lines.
enum JSONWriter {
    /// `value` as JSON text, appended to `bytes`.
    static func write(_ value: JSONValue, into bytes: inout [UInt8]) {
        switch value {
        case .null:
            bytes.append(contentsOf: "null".utf8)
        case .bool(let flag):
            bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let number):
            bytes.append(contentsOf: String(number).utf8)
        case .number(let number):
            // Swift's shortest description that reads back as the same Double: valid JSON for
            // finite numbers (the encoder refuses the others).
            bytes.append(contentsOf: (number.isFinite ? "\(number)" : "null").utf8)
        case .string(let text):
            writeString(text, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element, into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let fields):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                if let field = fields[key] {
                    write(field, into: &bytes)
                }
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private static func writeString(_ text: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00 ..< 0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// The value as compact JSON text with its object keys sorted (as a recording's lines write it).
    public var jsonText: [UInt8] {
        var bytes: [UInt8] = []
        JSONWriter.write(self, into: &bytes)
        return bytes
    }
}
