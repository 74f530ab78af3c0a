import Foundation
import Testing
import KatanaRecording

@Suite struct StateDiffRenderTests {
    @Test func render_struct_drawsEachFieldOnItsOwnLine_withQuotedStrings() {
        #expect(StateDiff.render(CounterState(counter: 1, name: "x")) == """
            CounterState(
              counter: 1,
              name: "x"
            )
            """)
    }

    @Test func render_enumCases_withoutPayload_withShortPayload_andWithNestedPayload() {
        #expect(StateDiff.render(Load.idle) == ".idle")
        #expect(StateDiff.render(Load.loaded(3)) == ".loaded(3)")
        #expect(StateDiff.render(Load.failed(code: 3, reason: "no")) == #".failed(code: 3, reason: "no")"#)
        #expect(StateDiff.render(Load.page(Page(items: ["a"], next: nil))) == """
            .page(
              Page(
                items: [
                  "a"
                ],
                next: nil
              )
            )
            """)
        #expect(StateDiff.render(Mode.fast) == "FAST")
    }

    @Test func render_optionals_drawTheirValueOrNil() {
        #expect(StateDiff.render(Optional<Int>.none as Any) == "nil")
        #expect(StateDiff.render(Optional(5) as Any) == "5")
        #expect(StateDiff.render(Page(items: [], next: 2)) == """
            Page(
              items: [],
              next: 2
            )
            """)
    }

    @Test func render_dictionary_ordersComparableKeys() {
        #expect(StateDiff.render(["b": 2, "a": 1, "c": 3]) == """
            [
              "a": 1,
              "b": 2,
              "c": 3
            ]
            """)
        #expect(StateDiff.render([10: "ten", 9: "nine"]) == """
            [
              9: "nine",
              10: "ten"
            ]
            """)
        #expect(StateDiff.render([String: Int]()) == "[:]")
    }

    @Test func render_dictionary_withKeysThatAreNotComparable_ordersThemByTheirDrawing() {
        let colors: [Color: Int] = [.red: 1, .green: 2, .blue: 3]
        #expect(StateDiff.render(colors) == """
            [
              .blue: 3,
              .green: 2,
              .red: 1
            ]
            """)
    }

    @Test func render_setsAndArraysAndTuples() {
        #expect(StateDiff.render(Set([3, 1, 2])) == """
            Set([
              1,
              2,
              3
            ])
            """)
        #expect(StateDiff.render(Set<Int>()) == "Set([])")
        #expect(StateDiff.render([[1], []]) == """
            [
              [
                1
              ],
              []
            ]
            """)
        #expect(StateDiff.render((1, name: "n")) == """
            (
              1,
              name: "n"
            )
            """)
    }

    @Test func render_stringsAreQuotedAndEscaped_numbersAsWritten() {
        #expect(StateDiff.render("say \"hi\"\nbye") == #""say \"hi\"\nbye""#)
        #expect(StateDiff.render(1.5) == "1.5")
        #expect(StateDiff.render(UInt8(7)) == "7")
        #expect(StateDiff.render(true) == "true")
        #expect(StateDiff.render(Character("c")) == #""c""#)
    }

    @Test func render_classes_includeSuperclassFieldsFirst_andMarkCycles() {
        #expect(StateDiff.render(Dog()) == """
            Dog(
              name: "generic",
              goodBoy: true
            )
            """)
        let first = Node(1)
        first.next = Node(2, next: first)
        #expect(StateDiff.render(first) == """
            Node(
              value: 1,
              next: Node(
                value: 2,
                next: Node(↻ cycle)
              )
            )
            """)
    }

    @Test func render_sharedInstancesThatAreNotCycles_areDrawnEachTime() {
        let shared = Node(7)
        #expect(StateDiff.render([shared, shared]) == """
            [
              Node(
                value: 7,
                next: nil
              ),
              Node(
                value: 7,
                next: nil
              )
            ]
            """)
    }

    @Test func render_foundationValues_showWhatTheyMean_notTheirStorage() throws {
        #expect(StateDiff.render(Date(timeIntervalSince1970: 0)) == "Date(1970-01-01 00:00:00 +0000)")
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(StateDiff.render(uuid) == "UUID(E621E1F8-C36C-495A-93FC-0C247A3E6E5F)")
        let url = try #require(URL(string: "https://example.com/a"))
        #expect(StateDiff.render(url) == #"URL("https://example.com/a")"#)
        #expect(StateDiff.render(Data([0, 1, 0xAB])) == "Data(3 bytes: 0001ab)")
        #expect(StateDiff.render(Data(repeating: 1, count: 40)).hasPrefix("Data(40 bytes, digest "))
        #expect(StateDiff.render(Duration.seconds(2)) == "Duration(2.0 seconds)")
        #expect(StateDiff.render(Decimal(string: "1.5") as Any) == "Decimal(1.5)")
    }

    @Test func render_largeArray_isCutAfterMaxElements_withACountAndADigest() {
        let options = StateDiff.Options(maxElements: 3)
        let rendered = StateDiff.render(Array(0..<1_000), options: options)
        let lines = rendered.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(4)) == ["[", "  0,", "  1,", "  2,"])
        #expect(lines[4].hasPrefix("  … (997 more elements, digest "))
        #expect(lines.last == "]")
        #expect(lines.count == 6)
    }

    @Test func render_millionElementArray_staysBoundedWithTheDefaultLimits() {
        let rendered = StateDiff.render(Array(repeating: 1, count: 1_000_000))
        // 1,000 elements shown, a summary line and the brackets.
        #expect(rendered.split(separator: "\n").count == 1_003)
    }

    @Test func render_veryDeepNesting_isCutAtMaxDepth_withoutExhaustingTheStack() {
        // Deep enough to overflow a recursive walk on a test thread's stack; not much deeper,
        // since releasing the value is itself recursive.
        let rendered = StateDiff.render(Chain.nested(5_000, end: 1), options: StateDiff.Options(maxDepth: 3))
        let lines = rendered.split(separator: "\n").map(String.init)
        // Levels 0 to 3 are drawn; what lies below is summed up.
        #expect(Array(lines.prefix(4)) == [".link(", "  .link(", "    .link(", "      .link("])
        #expect(lines[4].hasPrefix("        … (nested deeper than 3 levels, digest "))
        #expect(Array(lines.suffix(4)) == ["      )", "    )", "  )", ")"])
        #expect(lines.count == 9)
    }

    @Test func render_pastMaxValues_stopsAndSaysSo() {
        let rendered = StateDiff.render(Array(0..<10), options: StateDiff.Options(maxValues: 4))
        #expect(rendered == """
            [
              0,
              1,
              2,
              … (rendering stopped after 4 values)
            ]
            """)
    }

    @Test func render_withLimitsBelowTheirMinimum_usesTheMinimum() {
        let smallest = StateDiff.Options(contextLines: -1, maxElements: -5, maxDepth: -1, maxLines: -1, maxValues: -1, maxOutputLines: -1, maxEdits: -1)
        #expect(StateDiff.render(5, options: smallest) == "5")
        // One value (the array) is drawn, and one line is kept.
        let lines = StateDiff.render([5], options: smallest).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first == "[")
        #expect(lines.last?.hasPrefix("… (2 more lines, digest ") == true)
        // No context and no elements shown: the change shows as the summary of the left-out part.
        let noContext = StateDiff.Options(contextLines: -1, maxElements: -5)
        let diff = StateDiff.diff(expected: [1], actual: [2], options: noContext)
        let diffLines = diff?.split(separator: "\n").map(String.init) ?? []
        #expect(diffLines.count == 4)
        #expect(diffLines.first == "  [")
        #expect(diffLines[1].hasPrefix("−   … (1 more elements, digest "))
        #expect(diffLines[2].hasPrefix("+   … (1 more elements, digest "))
        #expect(diffLines.last == "  ]")
    }
}
