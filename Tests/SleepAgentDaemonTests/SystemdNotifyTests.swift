import Glibc
import Testing
@testable import SleepAgentDaemon

@Suite struct SystemdNotifyTests {
    /// A datagram socket bound where NOTIFY_SOCKET will point, as systemd holds it.
    private func listen(at path: String, abstract: Bool) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if abstract { bytes.insert(0, at: 0) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        #expect(bound == 0)
        return descriptor
    }

    private func receive(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }

    @Test func sendsToAPathSocket() {
        let path = "/tmp/dfl-notify-test-\(getpid())"
        unlink(path)
        let descriptor = listen(at: path, abstract: false)
        defer {
            close(descriptor)
            unlink(path)
        }
        #expect(SystemdNotify(environment: ["NOTIFY_SOCKET": path]).send("READY=1"))
        #expect(receive(descriptor) == "READY=1")
    }

    @Test func sendsToAnAbstractSocket() {
        let name = "dfl-notify-test-\(getpid())"
        let descriptor = listen(at: name, abstract: true)
        defer { close(descriptor) }
        #expect(SystemdNotify(environment: ["NOTIFY_SOCKET": "@" + name]).send("STOPPING=1"))
        #expect(receive(descriptor) == "STOPPING=1")
    }

    @Test func doesNothingWithoutTheVariableOrWithABadOne() {
        #expect(!SystemdNotify(environment: [:]).send("READY=1"))
        #expect(!SystemdNotify(environment: ["NOTIFY_SOCKET": ""]).send("READY=1"))
        #expect(!SystemdNotify(environment: ["NOTIFY_SOCKET": "relative/path"]).send("READY=1"))
        #expect(!SystemdNotify(environment: ["NOTIFY_SOCKET": "/" + String(repeating: "x", count: 200)]).send("READY=1"))
    }

    /// A manager that never reads its socket fills the queue; the agent's
    /// loop must not wait for room, so a send then fails instead.
    @Test func aSocketNobodyReadsNeverHoldsUpTheSender() {
        let path = "/tmp/dfl-notify-full-\(getpid())"
        unlink(path)
        let descriptor = listen(at: path, abstract: false)
        defer {
            close(descriptor)
            unlink(path)
        }
        let notify = SystemdNotify(environment: ["NOTIFY_SOCKET": path])
        var refused = false
        for _ in 0..<10_000 where !refused {
            refused = !notify.send("STATUS=1 timer mirrored")
        }
        #expect(refused)
    }
}
