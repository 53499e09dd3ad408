import DFLGettext
import SleepTimerCore
import Testing

/// In the "C" locale, whatever the environment of the test: what glibc
/// answers there is known. The programs' own start, in each language, is
/// exercised by the integration tests (Tests/Integration/test_translations.py).
@Suite struct ProgramLocaleTests {
    @Test func theBuildTreesCatalogsAreFoundThroughTheEnvironment() {
        #expect(ProgramLocale.catalogDirectory(environment: ["DFL_LOCALEDIR": "/src/build/locale"]) == "/src/build/locale")
    }

    @Test func withoutTheVariableTheInstalledCatalogsAreRead() {
        #expect(ProgramLocale.catalogDirectory(environment: [:]) == "/usr/share/locale")
    }

    @Test func inAFlatpakTheCatalogsAreTheAppsOwnUnderApp() {
        // The sandbox's /usr is the runtime's, which has no catalog of ours.
        #expect(ProgramLocale.catalogDirectory(environment: [:], place: .flatpak(appID: "com.dreamsforlittles.DreamsForLittles"))
            == "/app/share/locale")
        #expect(ProgramLocale.catalogDirectory(environment: [:], place: .host) == "/usr/share/locale")
    }

    @Test func theVariableWinsInAFlatpakToo() {
        #expect(ProgramLocale.catalogDirectory(environment: ["DFL_LOCALEDIR": "/src/build/locale"],
                                               place: .flatpak(appID: nil)) == "/src/build/locale")
    }

    @Test func aRelativeDirectoryIsNotTrusted() {
        // It would depend on the working directory the program was started in.
        #expect(ProgramLocale.catalogDirectory(environment: ["DFL_LOCALEDIR": "build/locale"]) == "/usr/share/locale")
    }

    @Test func theCLocalesClockIsReadFromGlibc() {
        // C: T_FMT "%H:%M:%S", AM_STR "AM", DAY_1 "Sunday".
        #expect(ProgramLocale().timeFormat() == TimeFormat(hourCycle: .twentyFourHour))
    }

    @Test func theDesktopsClockWinsOverTheLocales() {
        #expect(ProgramLocale().timeFormat(clockFormat: .twelveHour) == TimeFormat(hourCycle: .twelveHour))
    }
}

@Suite struct GettextTranslatorTests {
    @Test func aMessageWithoutTranslationIsItself() {
        #expect(GettextTranslator().translate("{name} is asleep") == "{name} is asleep")
    }

    @Test func withoutACatalogEnglishPluralsApply() {
        let translator = GettextTranslator()
        #expect(translator.translate("{count} min", plural: "{count} mins", count: 1) == "{count} min")
        #expect(translator.translate("{count} min", plural: "{count} mins", count: 0) == "{count} mins")
        #expect(translator.translate("{count} min", plural: "{count} mins", count: 2) == "{count} mins")
    }

    @Test func theEmptyMessageIsNotTheCatalogsHeader() {
        #expect(GettextTranslator().translate("") == "")
    }
}
