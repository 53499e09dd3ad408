import Glibc
import Testing
import EventLoop

@Suite struct FileDescriptorOutputTests {
    @Test func writesEveryByte() {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        defer { close(descriptors[0]) }
        let text = String(repeating: "line ✓\n", count: 1000)
        FileDescriptorOutput(descriptor: descriptors[1]).write(text)
        close(descriptors[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptors[0], &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        #expect(String(decoding: bytes, as: UTF8.self) == text)
    }
}
