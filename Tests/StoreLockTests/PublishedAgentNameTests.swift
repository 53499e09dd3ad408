import Glibc
import Testing
import StoreLock

@Suite struct PublishedAgentNameTests {
    private let entry = PublishedAgentName.Entry(busID: "0123456789abcdef0123456789abcdef", uniqueName: ":1.42")

    private func directory() -> String {
        var template = Array("/tmp/dfl-published-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        #expect(made != nil)
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func write(_ text: String, to path: String, mode: mode_t = 0o600) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode)
        #expect(descriptor >= 0)
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        _ = fchmod(descriptor, mode)
        close(descriptor)
    }

    @Test func aPublishedNameIsReadBackFromAPrivateFile() throws {
        let root = directory()
        try PublishedAgentName.publish(entry, inDirectory: root)
        #expect(PublishedAgentName.read(inDirectory: root) == .published(entry))
        var status = stat()
        #expect(lstat(PublishedAgentName.path(inDirectory: root), &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(status.st_mode & S_IFMT == S_IFREG)
    }

    @Test func noFileIsMissing() {
        #expect(PublishedAgentName.read(inDirectory: directory()) == .missing)
        #expect(PublishedAgentName.read(inDirectory: "/nonexistent-dfl-directory") == .missing)
    }

    @Test func aNewNameReplacesTheOldOneAndASymbolicLinkIsReplacedNotFollowed() throws {
        let root = directory()
        let target = root + "/elsewhere"
        write("untouched\n", to: target)
        #expect(symlink(target, PublishedAgentName.path(inDirectory: root)) == 0)
        #expect(PublishedAgentName.read(inDirectory: root) != .published(entry))
        try PublishedAgentName.publish(entry, inDirectory: root)
        #expect(PublishedAgentName.read(inDirectory: root) == .published(entry))
        var buffer = [UInt8](repeating: 0, count: 64)
        let descriptor = open(target, O_RDONLY)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        close(descriptor)
        #expect(String(decoding: buffer[..<max(0, count)], as: UTF8.self) == "untouched\n")
    }

    @Test func aSymbolicLinkIsNotRead() {
        let root = directory()
        write("\(entry.busID) \(entry.uniqueName)\n", to: root + "/elsewhere")
        #expect(symlink(root + "/elsewhere", PublishedAgentName.path(inDirectory: root)) == 0)
        guard case .unusable = PublishedAgentName.read(inDirectory: root) else {
            Issue.record("a symbolic link was followed")
            return
        }
    }

    @Test func aFileOthersMayWriteOrOfAnotherFormIsUnusable() {
        let root = directory()
        let path = PublishedAgentName.path(inDirectory: root)
        write("\(entry.busID) \(entry.uniqueName)\n", to: path, mode: 0o622)
        guard case .unusable = PublishedAgentName.read(inDirectory: root) else {
            Issue.record("a file others may write was believed")
            return
        }
        for text in [":1.42\n", "a b c\n", "a :1.42\nb :1.43\n", "", String(repeating: "a", count: 600) + " :1.42\n"] {
            write(text, to: path)
            guard case .unusable = PublishedAgentName.read(inDirectory: root) else {
                Issue.record("\(text.prefix(20)) was read as a name")
                return
            }
        }
    }

    @Test func aDirectoryInItsPlaceIsUnusable() {
        let root = directory()
        #expect(mkdir(PublishedAgentName.path(inDirectory: root), 0o700) == 0)
        guard case .unusable = PublishedAgentName.read(inDirectory: root) else {
            Issue.record("a directory was read as a name")
            return
        }
    }

    @Test func withdrawRemovesOnlyItsOwnName() throws {
        let root = directory()
        try PublishedAgentName.publish(entry, inDirectory: root)
        let next = PublishedAgentName.Entry(busID: entry.busID, uniqueName: ":1.43")
        try PublishedAgentName.withdraw(next, inDirectory: root)
        #expect(PublishedAgentName.read(inDirectory: root) == .published(entry))
        try PublishedAgentName.withdraw(entry, inDirectory: root)
        #expect(PublishedAgentName.read(inDirectory: root) == .missing)
        try PublishedAgentName.withdraw(entry, inDirectory: root)
    }
}
