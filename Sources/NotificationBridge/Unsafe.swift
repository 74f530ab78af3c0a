#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The one construct in this module that steps outside Swift's type safety, and its invariant.
///
/// Not a speed-up: a signal handler in a `sigaction` is a C function pointer (or one of the
/// sentinels `SIG_DFL` and `SIG_IGN`), and comparing two of them takes their addresses, which Swift
/// only exposes through a bit cast.
enum Unsafe {
    /// The address of a signal handler as the C library stores it (0 for `SIG_DFL`, 1 for `SIG_IGN`).
    ///
    /// Invariant: a C function pointer has the size and representation of a pointer-sized unsigned
    /// integer on every platform the package supports.
    static func address(of handler: (@convention(c) (Int32) -> Void)?) -> UInt {
        unsafeBitCast(handler, to: UInt.self)
    }
}
