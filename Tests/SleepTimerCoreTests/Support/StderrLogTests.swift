import Testing
@testable import SleepTimerCore

@Suite struct StderrLogTests {
    @Test func aLineHasItsPriorityPrefixAndEndsOnce() {
        #expect(StderrLog().line(.warning, "store full") == "<4>store full\n")
    }

    @Test func aProgramSharingStderrNamesItself() {
        #expect(StderrLog(program: "dfl-webview-bridge").line(.notice, "no session bus")
            == "<5>dfl-webview-bridge: no session bus\n")
    }

    @Test func belowTheThresholdNothingIsWritten() {
        #expect(StderrLog(threshold: .info).line(.debug, "tick") == nil)
        #expect(StderrLog(threshold: .debug).line(.debug, "tick") == "<7>tick\n")
    }

    @Test func oneMessageCannotForgeASecondLine() {
        #expect(StderrLog(program: "dreamsforlittles").line(.info, "a\n<3>b") == "<6>dreamsforlittles: a <3>b\n")
    }
}

@Suite struct EnvironmentEntriesTests {
    @Test func entriesBecomeNamesAndValuesTheLastOfATwiceGivenNameWinning() {
        #expect(System.environment(["A=1", "B=x=y", "A=2", "C="]) == ["A": "2", "B": "x=y", "C": ""])
    }

    @Test func anEntryWithoutAnEqualsSignIsPassedOver() {
        #expect(System.environment(["JUNK", "A=1"]) == ["A": "1"])
    }

    @Test func theStartEnvironmentIsTheOneTheProcessWasGiven() throws {
        // PATH, which nothing in the tests changes, read from
        // /proc/self/environ as from environ.
        let path = try #require(System.environment()["PATH"])
        #expect(System.startEnvironment()["PATH"] == path)
    }
}
