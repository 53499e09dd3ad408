import SleepTimerCore
import Testing

@Suite struct ActivityTypeTests {
    @Test func theKindsAreSpelledAsThePlatformSpellsThem() {
        #expect(ActivityType.allCases.map(\.rawValue) == ["sleep", "breastfeeding", "pumping"])
        #expect(ActivityType(rawValue: "Sleep") == nil)
        #expect(ActivityType(rawValue: "feeding") == nil)
    }
}
