/// A 64-bit FNV-1a hash of the lines a rendering leaves out, so two values that differ only in
/// what is not shown still render differently. Deterministic across runs (unlike `Hasher`), so
/// the digests in messages are stable.
struct Fingerprint {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// Mixes in one line of a rendering, with its depth so indentation counts.
    mutating func combine(depth: Int, text: String) {
        combine(UInt64(UInt(bitPattern: depth)))
        var text = text
        text.withUTF8 { bytes in
            var value = self.value
            for byte in bytes {
                value = (value ^ UInt64(byte)) &* Self.prime
            }
            self.value = value
        }
        combine(byte: 0x0A)
    }

    /// Mixes in raw bytes.
    mutating func combine<Bytes: Sequence<UInt8>>(bytes: Bytes) {
        for byte in bytes {
            combine(byte: byte)
        }
    }

    private mutating func combine(_ word: UInt64) {
        var word = word
        for _ in 0..<8 {
            combine(byte: UInt8(truncatingIfNeeded: word))
            word >>= 8
        }
    }

    private mutating func combine(byte: UInt8) {
        value = (value ^ UInt64(byte)) &* Self.prime
    }

    /// Eight hex digits, enough to tell renderings apart in a message.
    var digest: String {
        let folded = UInt32(truncatingIfNeeded: value ^ (value >> 32))
        let hex = String(folded, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
