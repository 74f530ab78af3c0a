/// Prints an edit script between two renderings: every changed line, a few unchanged lines of
/// context around each change, the opening and closing lines of every container that holds a
/// change (so the reader knows where it is), and a count for each unchanged stretch left out.
struct DiffFormatter {
    /// One line of the merged script.
    struct Entry {
        enum Kind {
            case unchanged
            case expectedOnly
            case actualOnly
        }

        var kind: Kind
        var line: RenderedLine
    }

    let options: StateDiff.Options

    /// The script's lines, prefixed `"  "`, `"− "` or `"+ "`.
    func format(_ entries: [Entry]) -> String {
        let shown = linesToShow(entries)
        var output: [String] = []
        var index = 0
        while index < entries.count {
            if output.count >= options.maxOutputLines {
                let changedLeft = entries[index...].filter { $0.kind != .unchanged }.count
                if changedLeft > 0 {
                    output.append("  … (\(changedLeft) more changed lines not shown)")
                }
                break
            }
            if shown[index] {
                output.append(Self.prefix(entries[index].kind) + entries[index].line.indented)
                index += 1
                continue
            }
            var end = index
            while end < entries.count && !shown[end] {
                end += 1
            }
            if end - index == 1 {
                // A count would take as much room as the line itself.
                output.append(Self.prefix(.unchanged) + entries[index].line.indented)
            } else {
                let depth = entries[index..<end].map(\.line.depth).min() ?? 0
                let marker = RenderedLine(depth: depth, text: "… (\(end - index) unchanged)")
                output.append(Self.prefix(.unchanged) + marker.indented)
            }
            index = end
        }
        return output.joined(separator: "\n")
    }

    private static func prefix(_ kind: Entry.Kind) -> String {
        switch kind {
        case .unchanged: "  "
        case .expectedOnly: StateDiff.expectedMarker + " "
        case .actualOnly: StateDiff.actualMarker + " "
        }
    }

    /// Marks the changed lines, their context, and the lines that open and close each container
    /// around a change.
    private func linesToShow(_ entries: [Entry]) -> [Bool] {
        let count = entries.count
        var shown = [Bool](repeating: false, count: count)
        // Whether the enclosing openers (or closers) of a line have already been marked, so each
        // walk stops where an earlier one passed and the whole marking stays linear.
        var openersMarked = [Bool](repeating: false, count: count)
        var closersMarked = [Bool](repeating: false, count: count)
        // Bounded by the number of lines, so a huge setting cannot overflow the index arithmetic.
        let context = min(options.contextLines, count)
        for index in entries.indices where entries[index].kind != .unchanged {
            shown[index] = true
            for near in max(0, index - context)...min(count - 1, index + context) {
                shown[near] = true
            }
            var depth = entries[index].line.depth
            var before = index - 1
            while before >= 0 && depth > 0 && !openersMarked[index] {
                if entries[before].line.depth < depth {
                    shown[before] = true
                    depth = entries[before].line.depth
                    if openersMarked[before] { break }
                    openersMarked[before] = true
                }
                before -= 1
            }
            openersMarked[index] = true
            depth = entries[index].line.depth
            var after = index + 1
            while after < count && depth > 0 && !closersMarked[index] {
                if entries[after].line.depth < depth {
                    shown[after] = true
                    depth = entries[after].line.depth
                    if closersMarked[after] { break }
                    closersMarked[after] = true
                }
                after += 1
            }
            closersMarked[index] = true
        }
        return shown
    }
}
