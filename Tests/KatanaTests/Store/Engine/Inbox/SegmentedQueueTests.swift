import Testing
@testable import Katana
import KatanaTestSupport

private typealias Queue = SegmentedQueue<Int>

/// Takes every item out of `queue`, a segment at a time, as the drainer does.
private func drainBySegments(_ queue: inout Queue) -> (items: [Int], largestSegment: Int) {
    var items: [Int] = []
    var largest = 0
    var buffer: [Int] = []
    while !queue.isEmpty {
        queue.takeFirstSegment(swappingWith: &buffer)
        largest = max(largest, buffer.count)
        items += buffer
        buffer.removeAll(keepingCapacity: true)
    }
    return (items, largest)
}

/// The inbox's item queue: order, counts, and segments that never grow past their capacity.
@Suite struct SegmentedQueueTests {
    @Test func itemsComeOutInOrder_aSegmentAtATime_neverMoreThanASegment() {
        var queue = Queue()
        let count = Queue.segmentCapacity * 3 + 17
        for item in 0 ..< count {
            queue.append(item)
        }
        #expect(queue.count == count)
        let drained = drainBySegments(&queue)
        #expect(drained.items == Array(0 ..< count))
        #expect(drained.largestSegment == Queue.segmentCapacity)
        #expect(queue.count == 0)
    }

    @Test func appendsWhileDraining_keepTheOrder() {
        var queue = Queue()
        var next = 0
        var out: [Int] = []
        var buffer: [Int] = []
        for round in 0 ..< 50 {
            for _ in 0 ..< (round * 97) % 3000 {
                queue.append(next)
                next += 1
            }
            queue.takeFirstSegment(swappingWith: &buffer)
            out += buffer
            buffer.removeAll(keepingCapacity: true)
        }
        out += drainBySegments(&queue).items
        #expect(out == Array(0 ..< next))
    }

    @Test func takeThrough_takesUpToAndIncludingTheTarget_andLeavesTheRest() {
        var queue = Queue()
        for item in 0 ..< 10 {
            queue.append(item)
        }
        #expect(queue.takeThrough(searchingFirst: 64) { $0 == 3 } == [0, 1, 2, 3])
        #expect(queue.count == 6)
        #expect(queue.takeThrough(searchingFirst: 2) { $0 == 9 } == nil)
        #expect(queue.count == 6)
        #expect(queue.takeThrough(searchingFirst: 64) { $0 == 9 } == [4, 5, 6, 7, 8, 9])
        #expect(queue.isEmpty)
    }

    @Test func takeThrough_whenTheHeadEmpties_laterSegmentsMoveUp() {
        var queue = Queue()
        let count = Queue.segmentCapacity + 5
        for item in 0 ..< count {
            queue.append(item)
        }
        let taken = queue.takeThrough(searchingFirst: Queue.segmentCapacity) { $0 == Queue.segmentCapacity - 1 }
        #expect(taken == Array(0 ..< Queue.segmentCapacity))
        // The next segment is at the front now, so a waiting thread finds its item there.
        #expect(queue.takeThrough(searchingFirst: 64) { $0 == count - 1 } == Array(Queue.segmentCapacity ..< count))
        #expect(queue.isEmpty)
    }

    @Test func takeAll_returnsEverythingInOrder() {
        var queue = Queue()
        let count = Queue.segmentCapacity * 2 + 3
        for item in 0 ..< count {
            queue.append(item)
        }
        #expect(queue.takeAll() == Array(0 ..< count))
        #expect(queue.isEmpty)
        queue.append(7)
        #expect(queue.takeAll() == [7])
    }

    @Test func spares_areOnlySmallEmptyBuffers() {
        var queue = Queue()
        var large: [Int] = []
        large.reserveCapacity(Queue.spareCapacityLimit * 4)
        queue.keepSpare(large)
        var small: [Int] = []
        small.reserveCapacity(8)
        queue.keepSpare(small)
        // A waiting thread's items come in the small spare (the large one was let go).
        queue.append(1)
        queue.append(2)
        let taken = queue.takeThrough(searchingFirst: 64) { $0 == 1 }
        #expect(taken == [1])
        #expect((taken?.capacity ?? 0) <= Queue.spareCapacityLimit)
    }
}

/// Taking one item out from anywhere in the queue (a cancelled dispatch).
@Suite struct SegmentedQueueRemovalTests {
    @Test func remove_fromTheHead_fromALaterSegment_andOfAnAbsentItem() {
        var queue = SegmentedQueue<Int>()
        let total = SegmentedQueue<Int>.segmentCapacity * 3
        for item in 0..<total {
            queue.append(item)
        }
        #expect(queue.remove { $0 == 5 } == 5)
        #expect(queue.remove { $0 == total - 1 } == total - 1)
        #expect(queue.remove { $0 == total } == nil)
        #expect(queue.count == total - 2)
        #expect(queue.takeAll() == (0..<total).filter { $0 != 5 && $0 != total - 1 })
    }

    @Test func remove_theOnlyItemOfASegment_dropsTheSegment_andAppendsStillWork() {
        var queue = SegmentedQueue<Int>()
        let capacity = SegmentedQueue<Int>.segmentCapacity
        for item in 0...capacity {  // one full head segment, one item in the next
            queue.append(item)
        }
        #expect(queue.remove { $0 == capacity } == capacity)
        queue.append(-1)
        #expect(queue.count == capacity + 1)
        var buffer: [Int] = []
        queue.takeFirstSegment(swappingWith: &buffer)
        #expect(buffer == Array(0..<capacity))
        #expect(queue.takeAll() == [-1])
        // Emptying the head moves the next segment up.
        for item in 0...capacity {
            queue.append(item)
        }
        for item in 0..<capacity {
            #expect(queue.remove { $0 == item } == item)
        }
        #expect(queue.count == 1)
        #expect(queue.takeAll() == [capacity])
    }
}
