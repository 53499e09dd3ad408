import DesktopAppCore
import Testing

/// The settings portal's values, as Debian 12's (1.16 with -gtk 1.14: no
/// `contrast`, GNOME's high-contrast instead) and Debian 13's (1.20 with
/// -gtk 1.15: both) serve them, turned into what GtkSettings gets.
@Suite struct AppearanceTests {
    @Test func nothingServedChangesNothing() {
        #expect(AppearanceRule.applied(for: DesktopAppearance()) == .untouched)
        var appearance = DesktopAppearance()
        for key in DesktopAppearance.Key.allCases { appearance.set(key, nil) }
        #expect(AppearanceRule.applied(for: appearance) == .untouched)
    }

    @Test func eachServedSchemeIsSetAndOnlyAnUnservedOneLeavesTheToolkitsOwn() {
        var appearance = DesktopAppearance()
        appearance.set(.colorScheme, .unsigned(1))
        #expect(AppearanceRule.applied(for: appearance).colorScheme == .set(.preferDark))
        appearance.set(.colorScheme, .unsigned(2))
        #expect(AppearanceRule.applied(for: appearance).colorScheme == .set(.preferLight))
        appearance.set(.colorScheme, .unsigned(0))
        #expect(AppearanceRule.applied(for: appearance).colorScheme == .set(.noPreference))
        appearance.set(.colorScheme, .signed(1))
        #expect(AppearanceRule.applied(for: appearance).colorScheme == .set(.preferDark))
        appearance.set(.colorScheme, .unsigned(7))
        #expect(AppearanceRule.applied(for: appearance).colorScheme == .set(.noPreference))
        appearance.set(.colorScheme, nil)
        #expect(AppearanceRule.applied(for: appearance).colorScheme == .keep)
    }

    @Test func highContrastIsGTKsBuiltInThemeAndLeavesTheSchemeToColorScheme() {
        var appearance = DesktopAppearance()
        appearance.set(.contrast, .unsigned(1))
        #expect(AppearanceRule.applied(for: appearance).themeName == .set("HighContrast"))
        #expect(AppearanceRule.applied(for: appearance).colorScheme == .keep)
        appearance.set(.colorScheme, .unsigned(1))
        #expect(AppearanceRule.applied(for: appearance) == AppliedAppearance(colorScheme: .set(.preferDark), themeName: .set("HighContrast"), xftDPI: .keep,
                                                  textZoom: 1, pagesHighContrast: true))
        appearance.set(.contrast, .unsigned(0))
        #expect(AppearanceRule.applied(for: appearance).themeName == .keep)
        #expect(!AppearanceRule.applied(for: appearance).pagesHighContrast)
    }

    @Test func gnomesSwitchCountsWhereThePortalHasNoContrast() {
        var appearance = DesktopAppearance()
        appearance.set(.gnomeHighContrast, .boolean(true))
        #expect(appearance.highContrast == true)
        #expect(AppearanceRule.applied(for: appearance).themeName == .set("HighContrast"))
        // The portal's own key wins where it is served.
        appearance.set(.contrast, .unsigned(0))
        #expect(appearance.highContrast == false)
        #expect(AppearanceRule.applied(for: appearance).themeName == .keep)
        appearance.set(.contrast, nil)
        #expect(appearance.highContrast == true)
        appearance.set(.gnomeHighContrast, .unsigned(1))
        #expect(appearance.highContrast == nil)
    }

    @Test func theTextScaleReachesTheHeaderBarAndThePageText() {
        var appearance = DesktopAppearance()
        appearance.set(.textScalingFactor, .double(1.25))
        #expect(AppearanceRule.applied(for: appearance).xftDPI == .set(122_880))
        #expect(AppearanceRule.applied(for: appearance).textZoom == 1.25)
        appearance.set(.textScalingFactor, .double(40))
        #expect(AppearanceRule.applied(for: appearance).textZoom == 3)
        appearance.set(.textScalingFactor, .double(0))
        #expect(AppearanceRule.applied(for: appearance).xftDPI == .keep)
        #expect(AppearanceRule.applied(for: appearance).textZoom == 1)
        appearance.set(.textScalingFactor, .double(.nan))
        #expect(AppearanceRule.applied(for: appearance).textZoom == 1)
    }

    @Test func aChangeIsReportedOnlyWhenAValueChanged() {
        var appearance = DesktopAppearance()
        let changes = [appearance.set(.colorScheme, .unsigned(1)), appearance.set(.colorScheme, .unsigned(1)),
                       appearance.set(.colorScheme, .signed(1)), appearance.set(.colorScheme, nil)]
        #expect(changes == [true, false, false, true])
    }

    @Test func keysAreFoundByTheirNamespaceAndName() {
        #expect(DesktopAppearance.Key(namespace: "org.freedesktop.appearance", name: "color-scheme") == .colorScheme)
        #expect(DesktopAppearance.Key(namespace: "org.freedesktop.appearance", name: "contrast") == .contrast)
        #expect(DesktopAppearance.Key(namespace: "org.gnome.desktop.a11y.interface", name: "high-contrast") == .gnomeHighContrast)
        #expect(DesktopAppearance.Key(namespace: "org.gnome.desktop.interface", name: "text-scaling-factor") == .textScalingFactor)
        #expect(DesktopAppearance.Key(namespace: "org.freedesktop.appearance", name: "accent-color") == nil)
        #expect(DesktopAppearance.Key(namespace: "org.gnome.desktop.interface", name: "color-scheme") == nil)
    }
}
