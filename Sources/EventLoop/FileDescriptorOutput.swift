import Glibc

/// Unbuffered writes to a descriptor: each call is written out before it
/// returns, so a line is never lost in a buffer when the process exits or
/// is killed, and lines written at different moments never interleave.
public struct FileDescriptorOutput: Sendable {
    public let descriptor: Int32

    public static let standardOutput = FileDescriptorOutput(descriptor: 1)
    public static let standardError = FileDescriptorOutput(descriptor: 2)

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
