/// Which names reach this machine only, read strictly: the inspector serves without a token only
/// on such an address, and then only to requests whose `Host` names one, so that a name a hostile
/// site points at 127.0.0.1 (DNS rebinding) or dresses up as a loopback address
/// (`127.0.0.1.evil.example`) is refused.
enum LoopbackAddress {
    /// Whether `authority`, a `Host` header's value, is exactly a loopback literal with an optional
    /// port: an IPv4 address in 127.0.0.0/8 written as four decimal numbers from 0 to 255 without
    /// leading zeros, `localhost` (in any case), or `[::1]`; the port, when given, is 1 to 65535
    /// in decimal digits.
    static func isLoopback(authority: String) -> Bool {
        let name: Substring
        let port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            name = authority[authority.index(after: authority.startIndex) ..< close]
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return false }
            port = rest.isEmpty ? nil : rest.dropFirst()
            guard name == "::1" else { return false }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            name = parts[0]
            port = parts.count == 2 ? parts[1] : nil
            guard isLoopbackName(name) else { return false }
        }
        guard let port else { return true }
        return isPort(port)
    }

    /// Whether `host`, an address to listen on, is a loopback one: a name that
    /// ``isLoopback(authority:)`` takes, without a port, or `::1` written without brackets.
    static func isLoopback(listenAddress host: String) -> Bool {
        host == "::1" || host == "[::1]" || (!host.contains(":") && isLoopback(authority: host))
    }

    /// `localhost` in any case, or an IPv4 literal in 127.0.0.0/8.
    private static func isLoopbackName(_ name: Substring) -> Bool {
        if name.lowercased() == "localhost" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy(isOctet)
    }

    /// 0 to 255 in ASCII decimal digits, without a leading zero (which some readers take as octal).
    private static func isOctet(_ text: Substring) -> Bool {
        guard (1 ... 3).contains(text.count), text.utf8.allSatisfy(isDigit) else { return false }
        guard text.count == 1 || text.first != "0" else { return false }
        return Int(text).map { $0 <= 255 } ?? false
    }

    /// 1 to 65535 in one to five ASCII decimal digits.
    private static func isPort(_ text: Substring) -> Bool {
        guard (1 ... 5).contains(text.count), text.utf8.allSatisfy(isDigit) else { return false }
        return Int(text).map { (1 ... 65_535).contains($0) } ?? false
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte)
    }
}
