#if canImport(Testing)
import Testing
#endif

/// The place in a test's source that a failure points at: the call site of the assertion that
/// found it, captured with `#fileID`, `#filePath`, `#line` and `#column` default arguments.
public struct TestSourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as `#fileID` spells it (`Module/File.swift`); Swift Testing shows this.
    public let fileID: StaticString
    /// The file's full path as `#filePath` spells it; XCTest shows this.
    public let filePath: StaticString
    /// The line, counted from 1.
    public let line: UInt
    /// The column, counted from 1.
    public let column: UInt

    /// Captures the caller's location, or the one passed in by an assertion helper that forwards
    /// its own caller's location.
    public init(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// `path:line:column`, the form compilers and test runners print.
    public var description: String {
        "\(filePath):\(line):\(column)"
    }

    /// Whether both point at the same file, line and column.
    public static func == (lhs: TestSourceLocation, rhs: TestSourceLocation) -> Bool {
        lhs.line == rhs.line && lhs.column == rhs.column
            && lhs.fileID.description == rhs.fileID.description
            && lhs.filePath.description == rhs.filePath.description
    }

    /// Hashes the file path, line and column.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(filePath.description)
        hasher.combine(line)
        hasher.combine(column)
    }

    #if canImport(Testing)
    /// The same place as Swift Testing's `SourceLocation`. Swift Testing requires a `fileID` with
    /// a module part and positive line and column numbers, so a hand-written location that lacks
    /// them is completed (`Unknown/…`, line or column 1) instead of stopping the test process.
    public var sourceLocation: SourceLocation {
        var moduleQualifiedID = fileID.description
        if moduleQualifiedID.isEmpty {
            moduleQualifiedID = "Unknown/unknown.swift"
        } else if !moduleQualifiedID.contains("/") {
            moduleQualifiedID = "Unknown/" + moduleQualifiedID
        }
        return SourceLocation(
            fileID: moduleQualifiedID,
            filePath: filePath.description,
            line: Int(clamping: max(line, 1)),
            column: Int(clamping: max(column, 1))
        )
    }
    #endif
}
