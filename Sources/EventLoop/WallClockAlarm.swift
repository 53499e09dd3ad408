import CDFLLinux
import Glibc

/// A timer on the wall clock, on the loop: it fires at a moment of the
/// real-time clock (a timerfd with TFD_TIMER_ABSTIME), so that a moment
/// that passed during a suspend fires at once on resume, and it tells when
/// the clock was set (TFD_TIMER_CANCEL_ON_SET: a jump, an NTP step, the
/// time set again after a suspend), so that whatever was computed from the
/// old time can be computed again. Waits on the monotonic clock know
/// neither.
public final class WallClockAlarm {
    private let descriptor: Int32
    private var source: MainLoop.Source?
    private var fire: (() -> Void)?
    /// Runs on the loop when the clock was set while the alarm was armed;
    /// the alarm is then disarmed, to be set again.
    public var clockChanged: (() -> Void)?

    public enum Failure: Error, Sendable {
        case noTimer(errno: Int32)
    }

    public init(on loop: MainLoop) throws(Failure) {
        descriptor = dfl_timerfd_wall_clock()
        guard descriptor >= 0 else { throw .noTimer(errno: errno) }
        source = loop.watch(descriptor: descriptor, for: .readable) { [weak self] _ in
            self?.readable()
            return .keep
        }
    }

    deinit {
        source?.cancel()
        close(descriptor)
    }

    /// Calls `fire` once at `millisecondsSince1970` (at once if that has
    /// passed); replaces whatever was set before.
    public func set(atMillisecondsSince1970 moment: Int64, _ fire: @escaping () -> Void) {
        self.fire = fire
        // A moment at or before the epoch would disarm the timer: the next
        // millisecond after it is as good as passed.
        if dfl_timerfd_arm_wall_clock(descriptor, max(1, moment)) != 0 {
            // Only a bad descriptor or moment fails; neither can happen here,
            // but a failure must not lose the wake-up.
            dfl_timerfd_arm_wall_clock(descriptor, 1)
        }
    }

    public func cancel() {
        fire = nil
        dfl_timerfd_arm_wall_clock(descriptor, 0)
    }

    private func readable() {
        var expirations: UInt64 = 0
        let count = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
        if count < 0 && errno == ECANCELED {
            fire = nil
            clockChanged?()
            return
        }
        guard count == MemoryLayout<UInt64>.size, let fire else { return }
        self.fire = nil
        fire()
    }
}

@available(*, unavailable, message: "The alarm belongs to its loop's thread.")
extension WallClockAlarm: Sendable {}
