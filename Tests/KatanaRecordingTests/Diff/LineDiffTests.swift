import Testing
@testable import KatanaRecording
import KatanaTestSupport

/// The length of a longest common subsequence, by the textbook table.
private func longestCommonSubsequence(_ a: [Int], _ b: [Int]) -> Int {
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in a.indices {
        for j in b.indices {
            table[i + 1][j + 1] = a[i] == b[j] ? table[i][j] + 1 : max(table[i][j + 1], table[i + 1][j])
        }
    }
    return table[a.count][b.count]
}

/// Checks that `edits` is a script from `old` to `new`: every line of each, in order, once.
private func isValidScript(_ edits: [LineDiff.Edit], from old: [Int], to new: [Int]) -> Bool {
    var nextOld = 0
    var nextNew = 0
    for edit in edits {
        switch edit {
        case .same(let x, let y):
            guard x == nextOld, y == nextNew, old[x] == new[y] else { return false }
            nextOld += 1
            nextNew += 1
        case .removed(let x):
            guard x == nextOld else { return false }
            nextOld += 1
        case .inserted(let y):
            guard y == nextNew else { return false }
            nextNew += 1
        }
    }
    return nextOld == old.count && nextNew == new.count
}

@Suite struct LineDiffTests {
    @Test func edits_ofEqualSequences_areAllSame() {
        let lines = [1, 2, 3]
        #expect(LineDiff.edits(from: lines, to: lines, maxEdits: 10) == [
            .same(old: 0, new: 0), .same(old: 1, new: 1), .same(old: 2, new: 2),
        ])
    }

    @Test func edits_putRemovedLinesBeforeInsertedOnesInEachChange() {
        #expect(LineDiff.edits(from: [1, 2, 3], to: [1, 9, 8, 3], maxEdits: 10) == [
            .same(old: 0, new: 0), .removed(1), .inserted(1), .inserted(2), .same(old: 2, new: 3),
        ])
    }

    @Test func edits_fromOrToNothing_removeOrInsertEverything() {
        #expect(LineDiff.edits(from: [], to: [1, 2], maxEdits: 10) == [.inserted(0), .inserted(1)])
        #expect(LineDiff.edits(from: [1, 2], to: [], maxEdits: 10) == [.removed(0), .removed(1)])
    }

    @Test func edits_ofRandomSequences_areValidAndShortest() {
        var generator = SplitMix(seed: 15)
        for _ in 0..<300 {
            let old = (0..<Int.random(in: 0...30, using: &generator)).map { _ in Int.random(in: 0...5, using: &generator) }
            let new = (0..<Int.random(in: 0...30, using: &generator)).map { _ in Int.random(in: 0...5, using: &generator) }
            let edits = LineDiff.edits(from: old, to: new, maxEdits: 1_000)
            #expect(isValidScript(edits, from: old, to: new), "old \(old) new \(new)")
            let kept = edits.filter { if case .same = $0 { true } else { false } }.count
            #expect(kept == longestCommonSubsequence(old, new), "old \(old) new \(new)")
        }
    }

    @Test func edits_beyondMaxEdits_areStillAValidScript() {
        var generator = SplitMix(seed: 16)
        let old = (0..<400).map { _ in Int.random(in: 0...50, using: &generator) }
        let new = (0..<400).map { _ in Int.random(in: 0...50, using: &generator) }
        let edits = LineDiff.edits(from: old, to: new, maxEdits: 5)
        #expect(isValidScript(edits, from: old, to: new))
    }

    @Test func edits_ofLongSequencesWithFewChanges_keepEverythingElse() {
        let old = Array(0..<50_000)
        var new = old
        new[10] = -1
        new.insert(-2, at: 30_000)
        new.remove(at: 49_000)
        let edits = LineDiff.edits(from: old, to: new, maxEdits: 2_000)
        #expect(isValidScript(edits, from: old, to: new))
        let changed = edits.filter { if case .same = $0 { false } else { true } }.count
        #expect(changed == 4)
    }
}
