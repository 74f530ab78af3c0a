/// What the command line asks for: which service to run, on which port, and (for the order
/// service) where the payment service listens.
///
///     traced-service payments [--port N]
///     traced-service orders --payments http://127.0.0.1:8081 [--port N]
struct ServiceOptions {
    /// The two services this program can be.
    enum Role: String {
        case orders, payments
    }

    /// A command line that does not say what to run.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    static let usage = "usage: traced-service payments [--port N] | traced-service orders --payments URL [--port N]"

    var role: Role
    /// The port to listen on, on 127.0.0.1; 0 lets the system choose (printed once listening).
    var port = 0
    /// The payment service's base URL, for the order service.
    var payments: String?

    init(_ arguments: [String]) throws {
        guard let first = arguments.first, let role = Role(rawValue: first) else {
            throw Invalid(description: "say which service to run, orders or payments\n\(Self.usage)")
        }
        self.role = role
        var rest = arguments.dropFirst()
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else {
                throw Invalid(description: "\(option) needs a value\n\(Self.usage)")
            }
            switch option {
            case "--port":
                guard let port = Int(value), (0...65535).contains(port) else {
                    throw Invalid(description: "--port takes a number from 0 to 65535, not \(value)")
                }
                self.port = port
            case "--payments":
                payments = value
            default:
                throw Invalid(description: "unknown option \(option)\n\(Self.usage)")
            }
        }
        if role == .orders, payments == nil {
            throw Invalid(description: "the order service needs --payments URL, where the payment service listens")
        }
    }
}
