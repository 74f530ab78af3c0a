/// Items in order, kept in arrays of at most ``segmentCapacity`` items: a store's inbox.
///
/// A burst never grows one array past a segment. glibc allocates a large array with `mmap`, and
/// when one is freed it raises its trim threshold to twice that array's size, after which it keeps
/// that much freed memory instead of returning it to the system; a 100,000-dispatch burst left
/// megabytes resident that way (docs/PERFORMANCE.md, "Memory"). Segments also let the drainer take
/// the items, and free what they hold, a batch at a time.
struct SegmentedQueue<Item> {
    /// The oldest items (appends go here while there are no later segments).
    private var head: [Item] = []
    /// Later segments, in order; each but the last is full, unless an item was removed from it.
    private var tail: [[Item]] = []
    /// Emptied small buffers, for the items a waiting thread takes and for new segments.
    private var spares: [[Item]] = []
    /// The number of items.
    private(set) var count = 0

    /// The most items a segment holds.
    static var segmentCapacity: Int { 1024 }
    /// How many emptied buffers are kept, and how large they may be: a few small ones, enough for
    /// the steady back and forth between the drainer and the inbox. A burst's segments are let go
    /// once emptied (kept, they would pin the heap above what the burst freed; see above).
    private static var maximumSpares: Int { 2 }
    static var spareCapacityLimit: Int { 64 }

    /// Whether there are no items.
    var isEmpty: Bool {
        count == 0
    }

    /// Adds `item` after the others.
    mutating func append(_ item: consuming Item) {
        count += 1
        if tail.isEmpty {
            if head.count < Self.segmentCapacity {
                head.append(item)
                return
            }
            tail.append(newSegment())
        } else if tail[tail.count - 1].count >= Self.segmentCapacity {
            tail.append(newSegment())
        }
        tail[tail.count - 1].append(item)
    }

    /// Swaps the oldest segment into `buffer`, which must be empty: the caller gets those items,
    /// and the queue keeps the buffer for later items.
    mutating func takeFirstSegment(swappingWith buffer: inout [Item]) {
        swap(&buffer, &head)
        count -= buffer.count
        moveUpIfHeadIsEmpty()
    }

    /// The items up to and including the first of the oldest `limit` that `isTarget` accepts,
    /// taken out into a buffer of the queue's; nil (and nothing taken) when none does.
    mutating func takeThrough(searchingFirst limit: Int, where isTarget: (Item) -> Bool) -> [Item]? {
        guard let index = head.prefix(limit).firstIndex(where: isTarget) else { return nil }
        var taken = spares.popLast() ?? []
        if index == head.count - 1, tail.isEmpty {
            swap(&taken, &head)
        } else {
            taken.append(contentsOf: head[...index])
            head.removeFirst(index + 1)
        }
        count -= taken.count
        moveUpIfHeadIsEmpty()
        return taken
    }

    /// Takes out the oldest item that `isTarget` accepts, wherever it is; nil when none does.
    /// Searches every segment: for rare events (a cancelled dispatch), not for the drain.
    mutating func remove(where isTarget: (Item) -> Bool) -> Item? {
        if let index = head.firstIndex(where: isTarget) {
            count -= 1
            defer { moveUpIfHeadIsEmpty() }
            return head.remove(at: index)
        }
        for segment in tail.indices {
            guard let index = tail[segment].firstIndex(where: isTarget) else { continue }
            count -= 1
            let item = tail[segment].remove(at: index)
            if tail[segment].isEmpty {
                tail.remove(at: segment)
            }
            return item
        }
        return nil
    }

    /// Takes out every item that `isTarget` accepts, in order (rare events, as ``remove(where:)``).
    mutating func removeAll(where isTarget: (Item) -> Bool) -> [Item] {
        var removed: [Item] = []
        var kept = SegmentedQueue()
        kept.spares = spares
        for item in takeAll() {
            if isTarget(item) {
                removed.append(item)
            } else {
                kept.append(item)
            }
        }
        self = kept
        return removed
    }

    /// Every item, in order; the queue is left empty.
    mutating func takeAll() -> [Item] {
        var all: [Item] = []
        swap(&all, &head)
        for segment in tail {
            all.append(contentsOf: segment)
        }
        tail = []
        count = 0
        return all
    }

    /// Keeps an emptied buffer for a later segment (a buffer that has grown past a segment is let go).
    mutating func keepSpare(_ buffer: [Item]) {
        guard spares.count < Self.maximumSpares, buffer.isEmpty, buffer.capacity > 0,
              buffer.capacity <= Self.spareCapacityLimit
        else { return }
        spares.append(buffer)
    }

    /// Keeps the oldest items in `head`: an emptied head gives way to the next segment.
    private mutating func moveUpIfHeadIsEmpty() {
        guard head.isEmpty, !tail.isEmpty else { return }
        keepSpare(head)
        head = tail.removeFirst()
        if tail.isEmpty {
            // Let go of the list of segments a burst grew: kept, it would pin the heap above the
            // memory the burst freed (see the type's comment).
            tail = []
        }
    }

    private mutating func newSegment() -> [Item] {
        if let spare = spares.popLast() {
            return spare
        }
        var segment: [Item] = []
        segment.reserveCapacity(Self.segmentCapacity)
        return segment
    }
}
