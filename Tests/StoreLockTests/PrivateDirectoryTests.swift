import Glibc
import Testing
import StoreLock

@Suite struct PrivateDirectoryTests {
    private func directory() -> String {
        var template = Array("/tmp/dfl-private-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        #expect(made != nil)
        return String(cString: template)
    }

    private func mode(_ path: String) -> mode_t {
        var status = stat()
        #expect(lstat(path, &status) == 0)
        return status.st_mode & 0o777
    }

    /// A folder another tool made 0755 earlier is set back to 0700.
    @Test func anExistingOpenDirectoryBecomesPrivate() throws {
        let path = directory() + "/dreamsforlittles"
        #expect(mkdir(path, 0o755) == 0)
        #expect(chmod(path, 0o755) == 0)
        try PrivateDirectory.prepare(path, what: "the website data folder")
        #expect(mode(path) == 0o700)
    }

    /// Missing parents and the directory itself are made 0700 even under umask 000.
    @Test func missingDirectoriesAreMadePrivateWhateverTheUmask() throws {
        let root = directory()
        let previous = umask(0)
        defer { umask(previous) }
        try PrivateDirectory.prepare(root + "/share/dreamsforlittles", what: "the website data folder")
        #expect(mode(root + "/share") == 0o700)
        #expect(mode(root + "/share/dreamsforlittles") == 0o700)
    }

    /// A symbolic link in its place is refused and neither it nor its target changes.
    @Test func aSymbolicLinkIsRefusedAndLeftAlone() {
        let root = directory()
        #expect(mkdir(root + "/elsewhere", 0o755) == 0)
        #expect(chmod(root + "/elsewhere", 0o755) == 0)
        #expect(symlink(root + "/elsewhere", root + "/dreamsforlittles") == 0)
        #expect(throws: PrivateDirectory.Failure.self) {
            try PrivateDirectory.prepare(root + "/dreamsforlittles", what: "the cache folder")
        }
        do {
            try PrivateDirectory.prepare(root + "/dreamsforlittles", what: "the cache folder")
        } catch {
            #expect(error.reason == .unsafe)
            #expect(error.description.hasPrefix("The cache folder \(root)/dreamsforlittles is a symbolic link"))
        }
        #expect(mode(root + "/elsewhere") == 0o755)
    }
}
