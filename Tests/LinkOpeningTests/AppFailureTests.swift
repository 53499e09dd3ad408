import DFLDBus
import SleepTimerCore
import Testing
@testable import LinkOpening

/// The bus's answer to starting the app, read in LinkRouteRule's terms: a
/// name that is not activatable is an app not installed, a bus that
/// refuses the activation starts no other program, anything else failed.
@Suite struct AppFailureTests {
    @Test func aNameThatIsNotActivatableIsAnAppNotInstalled() {
        let missing = BusError(name: BusError.Names.serviceUnknown, message: "The name is not activatable")
        #expect(LinkRouteRule.AppFailure(missing) == .notInstalled)
    }

    @Test func anyOtherErrorIsAFailureWithTheBussWords() {
        let failed = BusError(name: BusError.Names.noReply, message: "No reply")
        #expect(LinkRouteRule.AppFailure(failed) == .failed("No reply"))
    }

    @Test func aBusThatRefusesTheActivationIsNamedSo() {
        let refused = BusError(
            name: BusError.Names.limitsExceeded,
            message: "The maximum number of pending activations has been reached")
        #expect(LinkRouteRule.AppFailure(refused) == .refusedByBus("The maximum number of pending activations has been reached"))
    }
}
