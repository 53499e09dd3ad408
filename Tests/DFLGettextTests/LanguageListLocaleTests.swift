@testable import DFLGettext
import Testing

/// Under C.UTF-8, which glibc 2.41 reads as "C", LANGUAGE needs a UTF-8
/// locale's messages to be heard; elsewhere glibc's own rules stand.
@Suite struct LanguageListLocaleTests {
    @Test func aGermanListUnderCUTF8TriesGermanyFirst() {
        #expect(LanguageListLocale.candidates(environment: ["LANGUAGE": "de", "LANG": "C.UTF-8"])
            == ["de_DE.UTF-8", "en_US.UTF-8"])
    }

    @Test func everyEntryOfTheListIsTriedInItsOrder() {
        #expect(LanguageListLocale.candidates(environment: ["LANGUAGE": "pt_BR:fr::en", "LC_ALL": "C.utf8"])
            == ["pt_BR.UTF-8", "fr_FR.UTF-8", "en_US.UTF-8"])
    }

    @Test func anEntrysCodesetAndModifierGiveWayToUTF8() {
        #expect(LanguageListLocale.utf8Locales(for: "de_AT.ISO-8859-1@euro") == ["de_AT.UTF-8"])
        #expect(LanguageListLocale.utf8Locales(for: "sv") == ["sv_SE.UTF-8"])
        #expect(LanguageListLocale.utf8Locales(for: "../x") == [])
    }

    @Test func theMessagesLocaleIsLCAllThenLCMessagesThenLang() {
        // LC_MESSAGES set to a real locale: glibc reads LANGUAGE by itself.
        #expect(LanguageListLocale.candidates(environment: ["LANGUAGE": "de", "LANG": "C.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"]) == [])
        #expect(LanguageListLocale.candidates(environment: ["LANGUAGE": "de", "LC_ALL": "", "LANG": "C.UTF-8"]) == ["de_DE.UTF-8", "en_US.UTF-8"])
    }

    @Test func plainCAndPOSIXStayEnglishAsGlibcIntends() {
        #expect(LanguageListLocale.candidates(environment: ["LANGUAGE": "de", "LANG": "C"]) == [])
        #expect(LanguageListLocale.candidates(environment: ["LANGUAGE": "de"]) == [])
        #expect(LanguageListLocale.candidates(environment: ["LANGUAGE": "de", "LC_ALL": "POSIX"]) == [])
    }

    @Test func withoutALanguageListNothingChanges() {
        #expect(LanguageListLocale.candidates(environment: ["LANG": "C.UTF-8"]) == [])
        #expect(LanguageListLocale.candidates(environment: ["LANG": "C.UTF-8", "LANGUAGE": ":C"]) == [])
    }
}
