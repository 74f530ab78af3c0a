/// What a JSON value costs: in memory, for a tool that keeps many of them within a budget, and as
/// text, for a stream that counts what waits to be written.
extension JSONValue {
    /// About how many bytes of memory the value's storage takes: its strings too long to be kept
    /// inline, its arrays' and objects' storage, and everything they hold (not the value's own
    /// slot, which whatever holds it counts). An estimate from Swift's layouts and the allocator's
    /// rounding, within a few tens of percent, not an exact count; parts shared with another value
    /// are counted in each.
    public var estimatedByteCount: Int {
        switch self {
        case .null, .bool, .integer, .number:
            0
        case .string(let text):
            Self.heapBytes(of: text)
        case .array(let elements):
            elements.reduce(Self.allocation(32 + elements.count * MemoryLayout<JSONValue>.stride)) { $0 + $1.estimatedByteCount }
        case .object(let fields):
            fields.reduce(Self.objectStorage(count: fields.count)) { $0 + Self.heapBytes(of: $1.key) + $1.value.estimatedByteCount }
        }
    }

    /// The length of the value's JSON text as ``JSONWriter`` writes it, escapes left out: what a
    /// recording stream counts for a state, without writing it.
    var encodedLength: Int {
        switch self {
        case .null: 4
        case .bool(let flag): flag ? 4 : 5
        case .integer(let number): Self.digits(number)
        case .number(let number): number.description.utf8.count
        case .string(let text): text.utf8.count + 2
        case .array(let elements): elements.reduce(1 + max(1, elements.count)) { $0 + $1.encodedLength }
        case .object(let fields): fields.reduce(1 + max(1, fields.count)) { $0 + $1.key.utf8.count + 3 + $1.value.encodedLength }
        }
    }

    /// How many characters `number` takes in decimal, its sign included.
    static func digits(_ number: Int64) -> Int {
        var count = number < 0 ? 2 : 1
        var rest = number.magnitude
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    /// A string's storage: none for up to 15 UTF-8 bytes (kept inline), else a header, the bytes
    /// and a terminating zero.
    static func heapBytes(of text: String) -> Int {
        let count = text.utf8.count
        return count <= 15 ? 0 : allocation(32 + count + 1)
    }

    /// A dictionary's storage: a header, the occupancy bitmap, and a key and a value for each of
    /// its buckets (a power of two at most three quarters full).
    static func objectStorage(count: Int) -> Int {
        guard count > 0 else { return 0 }
        var buckets = 2
        while buckets * 3 < count * 4 {
            buckets *= 2
        }
        return allocation(64 + (buckets + 63) / 64 * 8 + buckets * (MemoryLayout<String>.stride + MemoryLayout<JSONValue>.stride))
    }

    /// What the allocator takes for `bytes`: its header, rounded up to 16 bytes.
    static func allocation(_ bytes: Int) -> Int {
        (bytes + 8 + 15) / 16 * 16
    }
}
