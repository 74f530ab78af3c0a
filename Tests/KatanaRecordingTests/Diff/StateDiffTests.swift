import Testing
import KatanaRecording

@Suite struct StateDiffTests {
    // MARK: Equal drawings

    @Test func diff_ofEqualValues_isNil() {
        #expect(StateDiff.diff(expected: CounterState(counter: 1, name: "x"), actual: CounterState(counter: 1, name: "x")) == nil)
        #expect(StateDiff.diff(expected: Load.page(Page(items: ["a"], next: 1)), actual: Load.page(Page(items: ["a"], next: 1))) == nil)
        #expect(StateDiff.diff(expected: Optional<Int>.none, actual: nil) == nil)
        #expect(StateDiff.diff(expected: AppState(), actual: AppState()) == nil)
    }

    @Test func diff_ofDictionariesAndSetsBuiltInDifferentOrders_isNil() {
        var first: [String: Int] = [:]
        var second: [String: Int] = [:]
        for key in (0..<50).map(String.init) {
            first[key] = 1
        }
        for key in (0..<50).reversed().map(String.init) {
            second[key] = 1
        }
        #expect(StateDiff.diff(expected: first, actual: second) == nil)
        #expect(StateDiff.diff(expected: Set(0..<50), actual: Set((0..<50).reversed())) == nil)
        let colors: Set<Color> = [.red, .green, .blue]
        #expect(StateDiff.diff(expected: colors, actual: Set([Color.blue, .green, .red])) == nil)
    }

    @Test func diff_ofEqualCyclicGraphs_isNil() {
        func ring() -> Node {
            let first = Node(1)
            first.next = Node(2, next: first)
            return first
        }
        #expect(StateDiff.diff(expected: ring(), actual: ring()) == nil)
    }

    // MARK: Exact messages

    @Test func diff_ofAChangedField_marksExpectedWithMinusAndActualWithPlus() {
        let diff = StateDiff.diff(expected: CounterState(counter: 2, name: "x"), actual: CounterState(counter: 1, name: "x"))
        #expect(diff == """
              CounterState(
            −   counter: 2,
            +   counter: 1,
                name: "x"
              )
            """)
    }

    @Test func diff_ofAChangedEnumCase() {
        let diff = StateDiff.diff(expected: Screen(title: "t", load: .idle), actual: Screen(title: "t", load: .failed(code: 4, reason: "gone")))
        #expect(diff == """
              Screen(
                title: "t",
            −   load: .idle
            +   load: .failed(code: 4, reason: "gone")
              )
            """)
    }

    @Test func diff_insideAnEnumPayload_showsTheEnclosingLines() {
        let diff = StateDiff.diff(
            expected: Load.page(Page(items: ["a", "b"], next: 2)),
            actual: Load.page(Page(items: ["a", "c"], next: 2))
        )
        #expect(diff == """
              .page(
                Page(
                  items: [
                    "a",
            −       "b"
            +       "c"
                  ],
                  next: 2
                )
              )
            """)
    }

    @Test func diff_ofANestedField_leavesLongUnchangedStretchesOut_andKeepsTheEnclosingLines() {
        var actual = AppState()
        actual.settings.h = 80
        #expect(StateDiff.diff(expected: AppState(), actual: actual) == """
              AppState(
                user: "ada",
                settings: Settings(
                  … (5 unchanged)
                  f: 6,
                  g: 7,
            −     h: 8,
            +     h: 80,
                  i: 9,
                  j: 10,
                  … (6 unchanged)
                ),
                … (6 unchanged)
              )
            """)
    }

    @Test func diff_withNoContext_showsOnlyTheChangesAndTheLinesAroundThem() {
        var actual = AppState()
        actual.settings.h = 80
        let diff = StateDiff.diff(expected: AppState(), actual: actual, options: StateDiff.Options(contextLines: 0))
        #expect(diff == """
              AppState(
                user: "ada",
                settings: Settings(
                  … (7 unchanged)
            −     h: 8,
            +     h: 80,
                  … (8 unchanged)
                ),
                … (6 unchanged)
              )
            """)
    }

    @Test func diff_withUnboundedContext_showsEveryLine() {
        var actual = AppState()
        actual.settings.h = 80
        let diff = StateDiff.diff(expected: AppState(), actual: actual, options: StateDiff.Options(contextLines: .max))
        #expect(diff?.contains("…") == false)
        #expect(diff?.split(separator: "\n").count == StateDiff.render(AppState()).split(separator: "\n").count + 1)
    }

    @Test func diff_ofAnInsertedElement_showsOnlyTheNewLine() {
        #expect(StateDiff.diff(expected: [1, 2, 3], actual: [1, 2, 4, 3]) == """
              [
                1,
                2,
            +   4,
                3
              ]
            """)
    }

    @Test func diff_ofAnOptionalThatBecameNil() {
        #expect(StateDiff.diff(expected: Page(items: [], next: 3), actual: Page(items: [], next: nil)) == """
              Page(
                items: [],
            −   next: 3
            +   next: nil
              )
            """)
    }

    @Test func diff_ofDictionaries_comparesEntriesByKey() {
        let diff = StateDiff.diff(expected: ["a": 1, "b": 2, "c": 3], actual: ["c": 3, "b": 20, "a": 1, "d": 4])
        #expect(diff == """
              [
                "a": 1,
            −   "b": 2,
            −   "c": 3
            +   "b": 20,
            +   "c": 3,
            +   "d": 4
              ]
            """)
    }

    @Test func diff_ofSets_comparesElementsInOrder() {
        #expect(StateDiff.diff(expected: Set(["b", "a"]), actual: Set(["c", "a", "b"])) == """
              Set([
                "a",
            −   "b"
            +   "b",
            +   "c"
              ])
            """)
    }

    @Test func diff_ofTuples() {
        #expect(StateDiff.diff(expected: (1, label: "a"), actual: (1, label: "b")) == """
              (
                1,
            −   label: "a"
            +   label: "b"
              )
            """)
    }

    @Test func diff_ofCyclicGraphs_thatDiffer() {
        let expected = Node(1)
        expected.next = Node(2, next: expected)
        let actual = Node(1)
        actual.next = Node(3, next: actual)
        #expect(StateDiff.diff(expected: expected, actual: actual) == """
              Node(
                value: 1,
                next: Node(
            −     value: 2,
            +     value: 3,
                  next: Node(↻ cycle)
                )
              )
            """)
    }

    @Test func diff_ofAStringWithQuotesAndNewlines_keepsItOnOneLine() {
        #expect(StateDiff.diff(expected: CounterState(counter: 0, name: "a\nb"), actual: CounterState(counter: 0, name: "say \"a\"")) == #"""
              CounterState(
                counter: 0,
            −   name: "a\nb"
            +   name: "say \"a\""
              )
            """#)
    }

    // MARK: Large values

    @Test func diff_ofLargeArrays_showsAChangeNearTheStart_inABoundedMessage() {
        let expected = Array(repeating: 0, count: 100_000)
        var actual = expected
        actual[10] = 7
        let diff = StateDiff.diff(expected: expected, actual: actual)
        #expect(diff == """
              [
                … (8 unchanged)
                0,
                0,
            −   0,
            +   7,
                0,
                0,
                … (988 unchanged)
              ]
            """)
    }

    @Test func diff_ofLargeArrays_showsAChangeBeyondTheDrawnElements_asAChangedDigest() throws {
        let expected = Array(repeating: 0, count: 100_000)
        var actual = expected
        actual[99_999] = 7
        let computed = StateDiff.diff(expected: expected, actual: actual)
        let diff = try #require(computed)
        let lines = diff.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(4)) == ["  [", "    … (998 unchanged)", "    0,", "    0,"])
        #expect(lines[4].hasPrefix("−   … (99000 more elements, digest "))
        #expect(lines[5].hasPrefix("+   … (99000 more elements, digest "))
        #expect(lines[4] != lines[5].replacingOccurrences(of: "+", with: "−"))
        #expect(lines.last == "  ]")
        #expect(lines.count == 7)
    }

    @Test func diff_withMoreChangesThanMaxOutputLines_stopsWithACount() throws {
        let computed = StateDiff.diff(expected: Array(0..<100), actual: Array(100..<200), options: StateDiff.Options(maxOutputLines: 10))
        let diff = try #require(computed)
        let lines = diff.split(separator: "\n").map(String.init)
        #expect(lines.count == 11)
        #expect(Array(lines.prefix(3)) == ["  [", "−   0,", "−   1,"])
        #expect(lines.last == "  … (191 more changed lines not shown)")
    }

    @Test func diff_ofDeeplyNestedValuesDifferingAtTheBottom_showsTheChangedDigest() throws {
        let computed = StateDiff.diff(
            expected: Chain.nested(3_000, end: 1),
            actual: Chain.nested(3_000, end: 2),
            options: StateDiff.Options(contextLines: 0, maxDepth: 2)
        )
        let diff = try #require(computed)
        let lines = diff.split(separator: "\n").map(String.init)
        #expect(lines.count == 8)
        #expect(lines[3].hasPrefix("−       … (nested deeper than 2 levels, digest "))
        #expect(lines[4].hasPrefix("+       … (nested deeper than 2 levels, digest "))
    }
}
