import DFLTestSupport
import Foundation
import Glibc
import Testing
@testable import SleepTimerCore

@Suite struct RegularFileReadTests {
    let directory = TemporaryDirectory()
    var path: String { "\(directory.path)/file" }

    private func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(filePath: path))
    }

    @Test func aRegularFileIsReadToTheLimitAndNoFurther() throws {
        try write([UInt8](repeating: 0x61, count: 1 << 20), to: path)
        #expect(try System.readRegularFile(path, limit: 10) == [UInt8](repeating: 0x61, count: 10))
        #expect(try System.readRegularFile(path, limit: 2 << 20)?.count == 1 << 20)
    }

    @Test func nothingAtThePathIsNone() throws {
        #expect(try System.readRegularFile(path, limit: 10) == nil)
    }

    @Test func aSymbolicLinkIsRefusedNotFollowed() throws {
        try write(Array("[platform]\n".utf8), to: path)
        try FileManager.default.createSymbolicLink(atPath: "\(directory.path)/link", withDestinationPath: path)
        #expect(throws: FileReadError.symbolicLink) { try System.readRegularFile("\(directory.path)/link", limit: 10) }
    }

    @Test func aDanglingSymbolicLinkIsRefusedToo() throws {
        try FileManager.default.createSymbolicLink(atPath: "\(directory.path)/link", withDestinationPath: "\(directory.path)/gone")
        #expect(throws: FileReadError.symbolicLink) { try System.readRegularFile("\(directory.path)/link", limit: 10) }
    }

    /// Opened without O_NONBLOCK, a FIFO with no writer would block the
    /// agent's start for good.
    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: FileReadError.notRegularFile) { try System.readRegularFile(path, limit: 10) }
    }

    @Test func aDeviceIsRefused() {
        #expect(throws: FileReadError.notRegularFile) { try System.readRegularFile("/dev/zero", limit: 10) }
    }
}
