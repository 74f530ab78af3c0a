/// Reads JSON text into a ``JSONValue``: the reading half of ``JSONWriter``, for a recording's lines.
///
/// A number with a fraction or an exponent that is a whole number below 9e15 is read as an integer,
/// as ``JSONValueEncoder`` encodes such numbers, so that what is written reads back as the same
/// value. Nesting is limited to ``maximumDepth`` levels, so that hostile text cannot exhaust the
/// stack.
struct JSONParser {
    /// The deepest nesting of arrays and objects read.
    static let maximumDepth = 512

    /// What is wrong with the text, and where.
    struct Problem: Error, CustomStringConvertible {
        /// The byte offset, from 0.
        let offset: Int
        let expected: String

        var description: String {
            "it is not valid JSON (at byte \(offset + 1): expected \(expected))"
        }
    }

    /// The value `bytes` hold; throws ``Problem`` for anything but one JSON value and white space.
    static func parse(_ bytes: some Collection<UInt8>) throws -> JSONValue {
        let contiguous = Array(bytes)
        return try contiguous.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer)
            let value = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.offset == buffer.count else { throw Problem(offset: parser.offset, expected: "the end of the text") }
            return value
        }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var current: UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            offset += 1
        }
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        skipSpace()
        guard let byte = current else { throw Problem(offset: offset, expected: "a value") }
        switch byte {
        case UInt8(ascii: "{"):
            return try object(depth: depth + 1)
        case UInt8(ascii: "["):
            return try array(depth: depth + 1)
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
            return try number()
        default:
            throw Problem(offset: offset, expected: "a value")
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let start = offset
        for expected in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard current == expected else { throw Problem(offset: start, expected: "\(word)") }
            offset += 1
        }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        guard depth <= Self.maximumDepth else { throw Problem(offset: offset, expected: "at most \(Self.maximumDepth) levels of nesting") }
        offset += 1
        var fields: [String: JSONValue] = [:]
        skipSpace()
        if current == UInt8(ascii: "}") {
            offset += 1
            return .object(fields)
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw Problem(offset: offset, expected: "a key in quotes") }
            let key = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw Problem(offset: offset, expected: "':' after a key") }
            offset += 1
            fields[key] = try value(depth: depth)
            skipSpace()
            switch current {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"):
                offset += 1
                return .object(fields)
            default: throw Problem(offset: offset, expected: "',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        guard depth <= Self.maximumDepth else { throw Problem(offset: offset, expected: "at most \(Self.maximumDepth) levels of nesting") }
        offset += 1
        var elements: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"):
                offset += 1
                return .array(elements)
            default: throw Problem(offset: offset, expected: "',' or ']'")
            }
        }
    }

    private mutating func string() throws -> String {
        offset += 1
        let start = offset
        // The common case: no escapes, read in one go.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 {
            offset += 1
        }
        if current == UInt8(ascii: "\"") {
            offset += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< offset - 1]), as: UTF8.self)
        }
        var text = Array(bytes[start ..< offset])
        while true {
            guard let byte = current else { throw Problem(offset: offset, expected: "the string's closing quote") }
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                offset += 1
                try escape(into: &text)
            case 0x00 ..< 0x20:
                throw Problem(offset: offset, expected: "a control character written as an escape")
            default:
                text.append(byte)
                offset += 1
            }
        }
    }

    private mutating func escape(into text: inout [UInt8]) throws {
        guard let byte = current else { throw Problem(offset: offset, expected: "an escape") }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800 ..< 0xDC00).contains(scalar) {
                // A high surrogate: its low half follows as a second escape.
                guard current == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
                    throw Problem(offset: offset, expected: "the low half of a surrogate pair")
                }
                offset += 2
                let low = try hexQuad()
                guard (0xDC00 ..< 0xE000).contains(low) else { throw Problem(offset: offset - 4, expected: "the low half of a surrogate pair") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw Problem(offset: offset - 4, expected: "a Unicode scalar") }
            text.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw Problem(offset: offset - 1, expected: "an escape (\\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u)")
        }
    }

    private mutating func hexQuad() throws -> UInt32 {
        var scalar: UInt32 = 0
        for _ in 0 ..< 4 {
            guard let byte = current, let digit = Self.hexDigit(byte) else { throw Problem(offset: offset, expected: "four hexadecimal digits") }
            scalar = scalar << 4 | digit
            offset += 1
        }
        return scalar
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func number() throws -> JSONValue {
        let start = offset
        if current == UInt8(ascii: "-") { offset += 1 }
        guard let first = current, (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(first) else {
            throw Problem(offset: offset, expected: "a digit")
        }
        if first == UInt8(ascii: "0") {
            offset += 1
        } else {
            skipDigits()
        }
        var whole = true
        if current == UInt8(ascii: ".") {
            whole = false
            offset += 1
            guard skipDigits() else { throw Problem(offset: offset, expected: "a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            whole = false
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            guard skipDigits() else { throw Problem(offset: offset, expected: "a digit in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< offset]), as: UTF8.self)
        if whole, let integer = Int64(text) {
            return .integer(integer)
        }
        guard let number = Double(text), number.isFinite else { throw Problem(offset: start, expected: "a number a Double can hold") }
        if number.rounded() == number, abs(number) < 9e15 {
            return .integer(Int64(number))
        }
        return .number(number)
    }

    /// Skips digits; returns whether there was at least one.
    @discardableResult
    private mutating func skipDigits() -> Bool {
        let start = offset
        while let byte = current, (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) {
            offset += 1
        }
        return offset > start
    }
}

extension JSONValue {
    /// Reads JSON text (UTF-8), as a recording's lines are read: a whole number below 9e15 is an
    /// integer however it is written. Throws for anything but one JSON value and white space, saying
    /// what was expected where; nesting deeper than 512 levels is refused.
    public init(parsing text: some Collection<UInt8>) throws {
        self = try JSONParser.parse(text)
    }
}
