/// How strictly a ``TestStore`` checks what a test did not assert.
///
/// `.on` (the default) is for features: every item the store handles on its own must be received
/// with ``TestStore/receive(_:timeout:assert:fileID:filePath:line:column:)``, a `send` or `receive`
/// checks the whole state, and ``TestStore/finish(fileID:filePath:line:column:)`` fails on anything
/// left over. `.off` is for large apps and integration tests: only what the test asserts is
/// checked — a state assertion compares the fields the closure sets, received items the test does
/// not ask for are skipped — and `.off(showSkipped: true)` reports what was skipped as notes.
public enum Exhaustivity: Sendable, Equatable {
    /// Everything is checked.
    case on
    /// Only what the test asserts is checked; `showSkipped` reports the rest as notes.
    case off(showSkipped: Bool)

    /// Only what the test asserts is checked, and nothing is said about the rest.
    public static let off = Exhaustivity.off(showSkipped: false)

    var isOn: Bool {
        self == .on
    }

    var showsSkipped: Bool {
        self == .off(showSkipped: true)
    }
}
