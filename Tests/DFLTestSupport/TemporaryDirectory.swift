import Foundation
import Glibc

/// A fresh private directory per test, removed with everything in it when
/// the test lets go of it.
public final class TemporaryDirectory {
    public let path: String

    public init() {
        var template = Array("/tmp/dfl-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Where the store of a user with this directory as home would live.
    public var stateDirectory: String { "\(path)/state/dreamsforlittles" }
}
