import AgentWorkflows
import SleepTimerCore
import Testing

@Suite struct AgentBusNamesTests {
    @Test func onTheHostTheAgentOwnsThePublicNameAloneAsTheDebHasIt() {
        #expect(AgentBusNames.owned(at: .host) == .publicOnly)
        #expect(AgentBusNames.owned(at: .host).names(public: "p", appScoped: "a") == ["p"])
    }

    @Test func insideAFlatpakItOwnsThePublicNameAndThenTheAppScopedOneThatActivationStarts() {
        #expect(AgentBusNames.owned(at: .flatpak(appID: "com.dreamsforlittles.App")) == .publicThenAppScoped)
        #expect(AgentBusNames.owned(at: .flatpak(appID: nil)).names(public: "p", appScoped: "a") == ["p", "a"])
    }
}
