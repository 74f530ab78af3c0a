/// One line of a rendering: its nesting depth (drawn as two spaces per level) and its text.
struct RenderedLine: Hashable {
    var depth: Int
    var text: String

    /// The line as printed, indented.
    var indented: String {
        String(repeating: "  ", count: depth) + text
    }
}

/// Draws a value as a tree of lines, within the limits of ``StateDiff/Options``.
///
/// It walks the value with an explicit stack instead of recursion, so a deeply nested value (a
/// long linked list, say) cannot overflow the thread's stack. What the limits leave out is not
/// dropped: it is hashed into a digest printed in its place, so two values that differ only
/// there still render differently.
struct StateRenderer {
    private let options: StateDiff.Options
    private(set) var lines: [RenderedLine] = []
    /// Regions being left out, innermost last; lines drawn inside go into its digest.
    private var hiddenRegions: [Fingerprint] = []
    /// Lines past `maxLines`, counted and hashed.
    private var overflowCount = 0
    private var overflowFingerprint = Fingerprint()
    /// The class instances on the path from the root to the value being drawn.
    private var objectsOnPath: Set<ObjectIdentifier> = []
    private var valuesDrawn = 0
    /// How each type met so far is drawn, so the dynamic casts are made once per type.
    private var leafKinds: [ObjectIdentifier: ValueShape.LeafKind] = [:]
    private var stopped = false

    private enum Work {
        case value(label: String?, value: Any, depth: Int, suffix: String)
        case line(depth: Int, text: String)
        case leaveObject(ObjectIdentifier)
        case beginHidden
        case endHidden(depth: Int, summary: String)
    }

    init(options: StateDiff.Options) {
        self.options = options
    }

    /// The lines that draw `value`.
    static func lines(of value: Any, options: StateDiff.Options) -> [RenderedLine] {
        var renderer = StateRenderer(options: options)
        renderer.draw(value)
        return renderer.lines
    }

    /// `value` on a single line, for dictionary keys and for ordering set elements.
    static func inline(_ value: Any, options: StateDiff.Options) -> String {
        var compact = options
        compact.maxLines = 200
        compact.maxValues = 1_000
        var text = ""
        for line in lines(of: value, options: compact) {
            if let last = text.last, last == "," {
                text += " "
            }
            text += line.text
        }
        return text
    }

    private mutating func draw(_ root: Any) {
        var work: [Work] = [.value(label: nil, value: root, depth: 0, suffix: "")]
        let inlineOptions = options
        let inline: (Any) -> String = { StateRenderer.inline($0, options: inlineOptions) }
        while let next = work.popLast() {
            switch next {
            case .value(let label, let value, let depth, let suffix):
                guard !stopped else { continue }
                valuesDrawn += 1
                if valuesDrawn > options.maxValues {
                    stopped = true
                    emit(depth: depth, text: "… (rendering stopped after \(options.maxValues) values)")
                    continue
                }
                let prefix = label.map { "\($0): " } ?? ""
                switch ValueShape.of(value, leafKinds: &leafKinds, inline: inline) {
                case .leaf(let text):
                    emit(depth: depth, text: prefix + text + suffix)
                case .container(let container):
                    openContainer(container, prefix: prefix, depth: depth, suffix: suffix, work: &work)
                }
            case .line(let depth, let text):
                emit(depth: depth, text: text)
            case .leaveObject(let object):
                objectsOnPath.remove(object)
            case .beginHidden:
                hiddenRegions.append(Fingerprint())
            case .endHidden(let depth, let summary):
                let region = hiddenRegions.removeLast()
                emit(depth: depth, text: "… (\(summary), digest \(region.digest))")
            }
        }
        if overflowCount > 0 {
            lines.append(RenderedLine(depth: 0, text: "… (\(overflowCount) more lines, digest \(overflowFingerprint.digest))"))
        }
    }

    /// Draws the opening line and schedules the children, the closing line and any left-out
    /// part (work is a stack, so it is pushed in reverse order).
    private mutating func openContainer(
        _ container: ValueShape.Container,
        prefix: String,
        depth: Int,
        suffix: String,
        work: inout [Work]
    ) {
        if let object = container.object {
            guard !objectsOnPath.contains(object) else {
                emit(depth: depth, text: prefix + container.open + "↻ cycle" + container.close + suffix)
                return
            }
            if container.children.isEmpty {
                emit(depth: depth, text: prefix + container.open + container.close + suffix)
                return
            }
        }
        emit(depth: depth, text: prefix + container.open)
        work.append(.line(depth: depth, text: container.close + suffix))
        if let object = container.object {
            objectsOnPath.insert(object)
            work.append(.leaveObject(object))
        }
        let children = container.children
        let childDepth = depth + 1
        let shownCount: Int
        let summary: String?
        if childDepth > options.maxDepth {
            shownCount = 0
            summary = "nested deeper than \(options.maxDepth) levels"
        } else if container.isCollection && children.count > options.maxElements {
            shownCount = options.maxElements
            summary = "\(children.count - shownCount) more elements"
        } else {
            shownCount = children.count
            summary = nil
        }
        if let summary {
            work.append(.endHidden(depth: childDepth, summary: summary))
            for index in children.indices.dropFirst(shownCount).reversed() {
                let child = children[index]
                work.append(.value(label: child.label, value: child.value, depth: childDepth, suffix: ","))
            }
            work.append(.beginHidden)
        }
        for index in children.indices.prefix(shownCount).reversed() {
            let child = children[index]
            let isLastLine = summary == nil && index == children.count - 1
            work.append(.value(label: child.label, value: child.value, depth: childDepth, suffix: isLastLine ? "" : ","))
        }
    }

    private mutating func emit(depth: Int, text: String) {
        if !hiddenRegions.isEmpty {
            hiddenRegions[hiddenRegions.count - 1].combine(depth: depth, text: text)
        } else if lines.count >= options.maxLines {
            overflowCount += 1
            overflowFingerprint.combine(depth: depth, text: text)
        } else {
            lines.append(RenderedLine(depth: depth, text: text))
        }
    }
}
