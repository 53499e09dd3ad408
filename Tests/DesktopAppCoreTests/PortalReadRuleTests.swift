import DesktopAppCore
import Testing

/// Which method reads a key of the settings portal, and what a failed read
/// means.
@Suite struct PortalReadRuleTests {
    @Test func aKeyIsAskedWithVersionTwosReadOneFirst() {
        #expect(PortalReadRule.firstMethod == .readOne)
    }

    @Test(arguments: [true, false])
    func aPortalWithoutReadOneIsAskedAgainWithRead(_ firstAnswer: Bool) {
        #expect(PortalReadRule.afterFailure(of: .readOne, .unknownMethod, firstAnswer: firstAnswer) == .askAgain(.read))
    }

    @Test func aPortalWithoutReadIsNotAskedAgain() {
        #expect(PortalReadRule.afterFailure(of: .read, .unknownMethod, firstAnswer: true) == .unread(log: true))
    }

    @Test(arguments: [PortalReadRule.Method.readOne, .read])
    func aKeyThePortalDoesNotServeIsNoFault(_ method: PortalReadRule.Method) {
        #expect(PortalReadRule.afterFailure(of: method, .notFound, firstAnswer: true) == .unread(log: false))
    }

    @Test(arguments: [PortalReadRule.Method.readOne, .read])
    func anyOtherFailureIsSaidAtTheFirstAnswerOnly(_ method: PortalReadRule.Method) {
        #expect(PortalReadRule.afterFailure(of: method, .other, firstAnswer: true) == .unread(log: true))
        #expect(PortalReadRule.afterFailure(of: method, .other, firstAnswer: false) == .unread(log: false))
    }
}
