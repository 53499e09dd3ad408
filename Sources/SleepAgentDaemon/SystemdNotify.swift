import Glibc

/// The sd_notify protocol without libsystemd: one datagram of `KEY=VALUE`
/// lines to the AF_UNIX socket named by NOTIFY_SOCKET (a leading `@` means
/// the abstract namespace). Does nothing when the variable is not set.
public struct SystemdNotify {
    let socketPath: String?

    public init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    @discardableResult
    public func send(_ state: String) -> Bool {
        guard let socketPath else { return false }
        var pathBytes = Array(socketPath.utf8)
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity, pathBytes.first == 0 || pathBytes.first == UInt8(ascii: "/") else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (pathBytes.first == 0 ? 0 : 1))
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                // Never waits: a service manager that does not read its socket
                // must not stop the agent's loop (a full datagram queue would).
                message.withUnsafeBytes {
                    sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), socketAddress, length)
                }
            }
        }
        return sent == message.count
    }
}
