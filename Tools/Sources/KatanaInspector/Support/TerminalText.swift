import Foundation

/// Text that came from a file or a client, made safe to print on a terminal: a recording's first
/// line, a path or a `Host` header could otherwise carry escape sequences that clear the screen,
/// recolour it, retitle the window or reorder what follows.
public enum TerminalText {
    /// `text` with every control character written out as Swift writes it in a literal: `\n`,
    /// `\r` and `\t`, and `\u{1B}` (hex) for the rest of C0, DEL, C1, the bidirectional
    /// overrides and isolates, and the line and paragraph separators. Everything else, letters of
    /// any script included, is left as it is.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Writes `message` (the program's own words) and then `detail` (an error, or anything else
    /// that may hold text from elsewhere), escaped, as one line on standard error.
    public static func report(_ message: String, escaping detail: Any) {
        FileHandle.standardError.write(Data("\(message)\(escaped(String(describing: detail)))\n".utf8))
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00 ... 0x1F, 0x7F ... 0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A ... 0x202E, 0x2066 ... 0x2069: true
        default: false
        }
    }
}
