import CDFLLinux
import Glibc

/// Wakes a loop from another thread: the other thread rings, and the
/// loop's thread runs the handler. Rings that come before the handler has
/// run are one: the handler takes whatever was left for it (in a mailbox
/// of the caller's) all at once.
///
/// The bell belongs to the loop's thread; its `ringer` is what other
/// threads hold. An eventfd carries the ring, so nothing polls.
public final class Bell {
    public let ringer: Ringer
    private let source: MainLoop.Source

    /// What another thread holds to ring the bell. Ringing after the bell is
    /// gone does nothing harmful only while the descriptor is not reused, so
    /// the bell must outlive every thread that rings it.
    public struct Ringer: Sendable {
        fileprivate let descriptor: Int32

        public func ring() {
            var one: UInt64 = 1
            // EAGAIN means the counter is full: it has been rung already.
            _ = write(descriptor, &one, MemoryLayout<UInt64>.size)
        }
    }

    public enum Failure: Error, Sendable {
        case noDescriptor(errno: Int32)
    }

    public init(on loop: MainLoop, _ handler: @escaping () -> Void) throws(Failure) {
        let descriptor = dfl_eventfd()
        guard descriptor >= 0 else { throw .noDescriptor(errno: errno) }
        ringer = Ringer(descriptor: descriptor)
        source = loop.watch(descriptor: descriptor, for: .readable) { _ in
            var count: UInt64 = 0
            _ = read(descriptor, &count, MemoryLayout<UInt64>.size)
            handler()
            return .keep
        }
    }

    deinit {
        source.cancel()
        close(ringer.descriptor)
    }
}

@available(*, unavailable, message: "The bell belongs to its loop's thread; other threads hold its Ringer.")
extension Bell: Sendable {}
