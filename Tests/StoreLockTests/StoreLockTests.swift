import Glibc
import Testing
@testable import StoreLock

@Suite struct StoreLockTests {
    /// A fresh directory for one test.
    private func directory() -> String {
        var template = Array("/tmp/dfl-lock-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        #expect(made != nil)
        return String(cString: template)
    }

    @Test func theFirstTakerHoldsTheLockAndASecondIsToldItsPID() throws {
        let path = directory()
        guard case .taken(let first) = StoreLock.take(inDirectory: path) else {
            Issue.record("the first take failed")
            return
        }
        // flock belongs to the open file: a second open is a second taker,
        // even in the same process.
        guard case .held(let holder) = StoreLock.take(inDirectory: path) else {
            Issue.record("a second take succeeded")
            return
        }
        #expect(holder == getpid())
        withExtendedLifetime(first) {}
    }

    @Test func theLockIsFreeAgainWhenItsHolderEnds() {
        let path = directory()
        do {
            guard case .taken(let first) = StoreLock.take(inDirectory: path) else {
                Issue.record("the first take failed")
                return
            }
            withExtendedLifetime(first) {}
        }
        guard case .taken = StoreLock.take(inDirectory: path) else {
            Issue.record("the lock stayed held after its holder ended")
            return
        }
    }

    @Test func theHolderIsNamedOnlyWhileAProcessOfThatNameHoldsIt() {
        let path = directory()
        guard case .taken(let lock) = StoreLock.take(inDirectory: path) else {
            Issue.record("the take failed")
            return
        }
        let myName = ProcessStatus.read(pid: getpid())?.name ?? ""
        #expect(StoreLock.holder(inDirectory: path, program: myName) == getpid())
        #expect(StoreLock.holder(inDirectory: path) == nil)  // this test is no dfl-sleep-agent
        withExtendedLifetime(lock) {}
    }

    @Test func aHeldLockIsTriedAgainForThePatienceGivenThenReported() {
        let path = directory()
        guard case .taken(let first) = StoreLock.take(inDirectory: path) else {
            Issue.record("the first take failed")
            return
        }
        guard case .held(let holder) = StoreLock.take(inDirectory: path, patienceMilliseconds: 100) else {
            Issue.record("a held lock was taken")
            return
        }
        #expect(holder == getpid())
        withExtendedLifetime(first) {}
    }

    @Test func aMissingDirectoryFailsAndSaysWhere() {
        guard case .failed(let reason) = StoreLock.take(inDirectory: "/nonexistent/dfl") else {
            Issue.record("a lock in a missing directory was taken")
            return
        }
        #expect(reason.contains("/nonexistent/dfl/sleep-timers.lock"))
    }

    @Test func theStatusLinesGiveNameAndRealUID() {
        let status = ProcessStatus.parse("Name:\tdfl-sleep-agent\nUmask:\t0077\nState:\tS (sleeping)\nUid:\t1000\t1000\t1000\t1000\n")
        #expect(status == ProcessStatus(name: "dfl-sleep-agent", realUID: 1000))
        #expect(ProcessStatus.parse("Name:\tx\n") == nil)
    }

    @Test func theStateDirectoryFollowsXDGAndIgnoresARelativePath() {
        #expect(StoreLock.stateDirectory(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/dreamsforlittles")
        #expect(StoreLock.stateDirectory(environment: ["XDG_STATE_HOME": "s", "HOME": "/h"]) == "/h/.local/state/dreamsforlittles")
        #expect(StoreLock.stateDirectory(environment: [:]) == nil)
    }
}
