import Dispatch
import Glibc

/// Seconds on the system's monotonic clock; the only clock the terminal front end reads.
struct MonotonicClock {
    func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    func sleep(until deadline: Double) {
        let wait = deadline - now()
        guard wait > 0 else { return }
        var interval = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - wait.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&interval, &remaining) != 0, errno == EINTR { interval = remaining }
    }
}
