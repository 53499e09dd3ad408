import SleepTimerCore
import Testing

@Suite struct ConfigurationChangeTests {
    @Test func nothingChangedIsEmpty() {
        #expect(ConfigurationChange(from: Configuration(), to: Configuration()).isEmpty)
    }

    @Test func runTimeSettingsApplyAndTheRestWaitsForARestart() {
        var new = Configuration()
        new.liveElapsed = .on
        new.renewalLead = .seconds(10 * 60)
        new.certificateAuthorities = "/etc/ssl/ca.pem"
        new.indicator = .never
        new.proxy = try! APIOrigin(parsing: "https://proxy.example:3128")
        let change = ConfigurationChange(from: Configuration(), to: new)
        #expect(change.applied == ["[notifications] live-elapsed", "[timers] renew-before-expiry-minutes"])
        #expect(change.needsRestart == ["[platform] ca-file", "[platform] proxy", "[indicator] show"])
    }
}
