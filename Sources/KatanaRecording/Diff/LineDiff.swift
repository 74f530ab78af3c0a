/// A shortest edit script between two sequences of lines (Myers' O((N+M)·D) algorithm), with
/// the common start and end trimmed first and a bound on the number of edits it searches for.
enum LineDiff {
    /// One step of the script.
    enum Edit: Equatable {
        /// A line both sequences have: `old` in the first, `new` in the second.
        case same(old: Int, new: Int)
        /// A line only the first sequence has.
        case removed(Int)
        /// A line only the second sequence has.
        case inserted(Int)
    }

    /// The edits that turn `old` into `new`, in order; within each changed stretch the removed
    /// lines come before the inserted ones. When the two differ by more than `maxEdits` lines the
    /// changed middle is reported as wholly removed then wholly inserted, which is still a correct
    /// script, just not the shortest one.
    static func edits<Line: Hashable>(from old: [Line], to new: [Line], maxEdits: Int) -> [Edit] {
        // Lines are compared many times; compare small integers instead.
        var ids: [Line: Int] = [:]
        func id(of line: Line) -> Int {
            if let id = ids[line] { return id }
            let id = ids.count
            ids[line] = id
            return id
        }
        let a = old.map(id(of:))
        let b = new.map(id(of:))
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] {
            prefix += 1
        }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        var script: [Edit] = (0..<prefix).map { .same(old: $0, new: $0) }
        let middleA = Array(a[prefix..<(a.count - suffix)])
        let middleB = Array(b[prefix..<(b.count - suffix)])
        let middle = shortestEdits(middleA, middleB, maxEdits: maxEdits)
            ?? (middleA.indices.map { .removed($0) } + middleB.indices.map { .inserted($0) })
        script += middle.map { edit in
            switch edit {
            case .same(let x, let y): .same(old: x + prefix, new: y + prefix)
            case .removed(let x): .removed(x + prefix)
            case .inserted(let y): .inserted(y + prefix)
            }
        }
        script += (0..<suffix).map { .same(old: a.count - suffix + $0, new: b.count - suffix + $0) }
        return removalsFirst(script)
    }

    /// Myers' greedy search; nil when more than `maxEdits` edits are needed. Keeps, for each
    /// number of edits `d`, only the furthest-reaching points of diagonals -d…d (O(D²) memory).
    private static func shortestEdits(_ a: [Int], _ b: [Int], maxEdits: Int) -> [Edit]? {
        let n = a.count
        let m = b.count
        if n == 0 || m == 0 {
            return a.indices.map { .removed($0) } + b.indices.map { .inserted($0) }
        }
        let limit = min(n + m, maxEdits)
        // frontier[k + offset] is the furthest x reached on diagonal k (x - y == k).
        let offset = limit + 1
        var frontier = [Int](repeating: 0, count: 2 * limit + 3)
        var history: [[Int]] = []
        for d in 0...limit {
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1]) {
                    x = frontier[offset + k + 1]
                } else {
                    x = frontier[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                frontier[offset + k] = x
                if x >= n && y >= m {
                    history.append(Array(frontier[(offset - d)...(offset + d)]))
                    return backtrack(history, n: n, m: m)
                }
            }
            history.append(Array(frontier[(offset - d)...(offset + d)]))
        }
        return nil
    }

    /// Walks the saved frontiers back from the end to the start.
    private static func backtrack(_ history: [[Int]], n: Int, m: Int) -> [Edit] {
        var edits: [Edit] = []
        var x = n
        var y = m
        for d in stride(from: history.count - 1, through: 1, by: -1) {
            let previous = history[d - 1]
            // previous[i] is diagonal i - (d - 1).
            func reached(_ k: Int) -> Int { previous[k + d - 1] }
            let k = x - y
            let previousK = (k == -d || (k != d && reached(k - 1) < reached(k + 1))) ? k + 1 : k - 1
            let previousX = reached(previousK)
            let previousY = previousX - previousK
            while x > previousX && y > previousY {
                x -= 1
                y -= 1
                edits.append(.same(old: x, new: y))
            }
            if x == previousX {
                y -= 1
                edits.append(.inserted(y))
            } else {
                x -= 1
                edits.append(.removed(x))
            }
        }
        while x > 0 && y > 0 {
            x -= 1
            y -= 1
            edits.append(.same(old: x, new: y))
        }
        return edits.reversed()
    }

    /// Reorders each stretch of changes so that its removed lines come first.
    private static func removalsFirst(_ script: [Edit]) -> [Edit] {
        var result: [Edit] = []
        result.reserveCapacity(script.count)
        var removed: [Edit] = []
        var inserted: [Edit] = []
        func flush() {
            result += removed
            result += inserted
            removed.removeAll()
            inserted.removeAll()
        }
        for edit in script {
            switch edit {
            case .same:
                flush()
                result.append(edit)
            case .removed:
                removed.append(edit)
            case .inserted:
                inserted.append(edit)
            }
        }
        flush()
        return result
    }
}
