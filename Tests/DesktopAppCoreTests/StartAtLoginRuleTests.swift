import DesktopAppCore
import Testing

/// Start at login, as the desktop's entries say and as the person turns it.
@Suite struct StartAtLoginRuleTests {
    @Test func noFileIsNoEntry() {
        #expect(StartAtLoginRule.entry(parsing: nil) == .missing)
    }

    @Test func anEntryIsEnabledUnlessItSaysOtherwise() {
        #expect(StartAtLoginRule.entry(parsing: "[Desktop Entry]\nType=Application\nExec=x\n") == .enabled)
        #expect(StartAtLoginRule.entry(parsing: "[Desktop Entry]\nHidden=false\nX-GNOME-Autostart-enabled=true\n") == .enabled)
        #expect(StartAtLoginRule.entry(parsing: "") == .enabled)
    }

    /// KDE's and the XDG specification's way.
    @Test func hiddenTrueDisables() {
        #expect(StartAtLoginRule.entry(parsing: "[Desktop Entry]\nType=Application\nHidden=true\n") == .disabled)
        #expect(StartAtLoginRule.entry(parsing: "[Desktop Entry]\r\n  Hidden = true \r\n") == .disabled)
    }

    /// GNOME's way.
    @Test func gnomesAutostartEnabledFalseDisables() {
        #expect(StartAtLoginRule.entry(parsing: "[Desktop Entry]\nX-GNOME-Autostart-enabled=false\n") == .disabled)
    }

    @Test func onlyTheDesktopEntryGroupCounts() {
        #expect(StartAtLoginRule.entry(parsing: "[Desktop Action x]\nHidden=true\n[Desktop Entry]\nName=A\n") == .enabled)
        #expect(StartAtLoginRule.entry(parsing: "Hidden=true\n[Desktop Entry]\nName=A\n") == .enabled)
        #expect(StartAtLoginRule.entry(parsing: "[Desktop Entry]\nnot a line\nHidden=true\n") == .disabled)
    }

    @Test func theDisablingEntryIsReadAsDisabled() {
        #expect(StartAtLoginRule.entry(parsing: StartAtLoginRule.disablingEntry) == .disabled)
    }

    @Test func onTheHostTheEntryAndTheMaskDecide() {
        #expect(StartAtLoginRule.isOn(sandboxed: false, entry: .missing, loginMasked: false, rememberedOff: false))
        #expect(StartAtLoginRule.isOn(sandboxed: false, entry: .enabled, loginMasked: false, rememberedOff: true))
        #expect(!StartAtLoginRule.isOn(sandboxed: false, entry: .disabled, loginMasked: false, rememberedOff: false))
        #expect(!StartAtLoginRule.isOn(sandboxed: false, entry: .missing, loginMasked: true, rememberedOff: false))
    }

    /// The sandbox reads no autostart entry: the app's memory decides.
    @Test func inTheSandboxTheAppsMemoryDecides() {
        #expect(StartAtLoginRule.isOn(sandboxed: true, entry: .missing, loginMasked: false, rememberedOff: false))
        #expect(!StartAtLoginRule.isOn(sandboxed: true, entry: .missing, loginMasked: false, rememberedOff: true))
        #expect(!StartAtLoginRule.isOn(sandboxed: true, entry: .enabled, loginMasked: false, rememberedOff: true))
        #expect(StartAtLoginRule.isOn(sandboxed: true, entry: .disabled, loginMasked: true, rememberedOff: false))
    }

    /// A desktop's disabled entry, which GNOME or KDE under systemd would
    /// not apply to the unit, gets the unit's login start masked; a mask
    /// alone gets the entry; nothing is ever turned on.
    @Test func atTheStartOnTheHostAnOffFoundInOnePlaceIsCarriedOutInTheOther() {
        #expect(StartAtLoginRule.stepsAtStart(sandboxed: false, entry: .disabled, loginMasked: false, rememberedOff: false) == [.maskLoginStart])
        #expect(StartAtLoginRule.stepsAtStart(sandboxed: false, entry: .missing, loginMasked: true, rememberedOff: false) == [.writeDisablingEntry])
        #expect(StartAtLoginRule.stepsAtStart(sandboxed: false, entry: .enabled, loginMasked: true, rememberedOff: false) == [.writeDisablingEntry])
        #expect(StartAtLoginRule.stepsAtStart(sandboxed: false, entry: .disabled, loginMasked: true, rememberedOff: false) == [])
        #expect(StartAtLoginRule.stepsAtStart(sandboxed: false, entry: .missing, loginMasked: false, rememberedOff: true) == [])
        #expect(StartAtLoginRule.stepsAtStart(sandboxed: false, entry: .enabled, loginMasked: false, rememberedOff: false) == [])
    }

    @Test func atTheStartInTheSandboxNothingIsDone() {
        #expect(StartAtLoginRule.stepsAtStart(sandboxed: true, entry: .missing, loginMasked: false, rememberedOff: true) == [])
        #expect(StartAtLoginRule.stepsAtStart(sandboxed: true, entry: .missing, loginMasked: false, rememberedOff: false) == [])
        #expect(StartAtLoginRule.stepsAtStart(sandboxed: true, entry: .disabled, loginMasked: true, rememberedOff: false) == [])
    }

    @Test func turningItOffOrOnOnTheHost() {
        #expect(StartAtLoginRule.steps(turningOn: false, sandboxed: false) == [.writeDisablingEntry, .maskLoginStart])
        #expect(StartAtLoginRule.steps(turningOn: true, sandboxed: false) == [.removeUserEntry, .unmaskLoginStart])
    }

    @Test func turningItOffOrOnInTheSandbox() {
        #expect(StartAtLoginRule.steps(turningOn: false, sandboxed: true) == [.rememberOff(true), .askThePortal(autostart: false)])
        #expect(StartAtLoginRule.steps(turningOn: true, sandboxed: true) == [.rememberOff(false), .askThePortal(autostart: true)])
    }

    @Test func theNamesAreThePackagesOwn() {
        #expect(StartAtLoginRule.hostEntryName == "com.dreamsforlittles.DreamsForLittles.SleepAgent-autostart.desktop")
        #expect(StartAtLoginRule.unitName == "dfl-sleep-agent.service")
        #expect(StartAtLoginRule.actionName == "start-at-login")
    }

    @Test func theEntriesAndTheUnitsFolderFollowXDG() {
        let paths = AppPaths(environment: ["HOME": "/home/p", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s"])
        #expect(paths.autostart == "/c/autostart")
        #expect(paths.userUnits == "/c/systemd/user")
        #expect(paths.startAtLoginOff == "/s/dreamsforlittles/start-at-login-off")
        #expect(paths.backgroundAsked == "/s/dreamsforlittles/background-asked")
        #expect(AppPaths(environment: ["HOME": "/home/p"]).autostart == "/home/p/.config/autostart")
    }
}
