import CMallocStats
import Foundation

/// What the process's memory looks like right now, as the kernel and the allocator see it.
public enum ProcessMemory {
    /// Resident set size in bytes (`VmRSS` of `/proc/self/status`); nil where there is no procfs.
    public static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let digits = line.dropFirst("VmRSS:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
            return digits.map { $0 * 1024 }
        }
        return nil
    }

    /// Bytes the C allocator has handed out and not yet had back (glibc's `mallinfo2().uordblks`
    /// plus its mmapped blocks); nil on other platforms.
    public static func heapInUseBytes() -> Int? {
        let bytes = katana_bench_heap_in_use()
        return bytes < 0 ? nil : Int(bytes)
    }

    /// Asks the allocator to give free memory back to the kernel (glibc `malloc_trim(0)`), so an
    /// RSS reading after it shows what is still in use rather than what the allocator keeps cached.
    public static func trim() {
        katana_bench_malloc_trim()
    }
}
