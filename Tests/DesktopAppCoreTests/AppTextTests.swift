import DFLTestSupport
import DesktopAppCore
import SleepTimerCore
import Testing

/// The app's words in another language: looked up whole, filled after the
/// translation, escaped in the pages, and never in the log.
@Suite struct AppTextTests {
    static let german = DictionaryTranslator(
        messages: [
            "The configuration cannot be used": "Die Konfiguration lässt sich nicht verwenden",
            "Dreams for Littles cannot be reached": "Dreams for Littles ist nicht erreichbar",
            "Try again now": "Jetzt erneut versuchen",
            "tooltip\u{4}Back": "Zurück",
            "The link does not start with dreamsforlittles://.": "Der Link beginnt nicht mit dreamsforlittles://.",
            "This link cannot be opened. {reason}": "Dieser Link lässt sich nicht öffnen. {reason}",
            "dreamsforlittles: The link {link} cannot be opened. {reason}":
                "dreamsforlittles: Der Link {link} lässt sich nicht öffnen. {reason}",
            "Usage: {synopsis}": "Aufruf: {synopsis}",
            "dreamsforlittles: Unknown option {option}.": "dreamsforlittles: Unbekannte Option {option}.",
        ],
        plurals: [
            "Trying again in {count} second.": ["Neuer Versuch in {count} Sekunde.", "Neuer Versuch in {count} Sekunden."],
        ])

    func inGerman<T>(_ body: () -> T) -> T { Localization.$scoped.withValue(Self.german, operation: body) }

    @Test func theConfigurationErrorPageSpeaksTheReadersLanguage() {
        let page = inGerman { AppPages.configurationError("/x.conf:2: [app] web-origin: must use https") }
        #expect(page.contains("<title>Die Konfiguration lässt sich nicht verwenden</title>"))
        #expect(page.contains("<h1>Die Konfiguration lässt sich nicht verwenden</h1>"))
    }

    @Test func theOfflinePageCountsSecondsInTheReadersPlural() {
        let one = inGerman { AppPages.offline(origin: "https://app.example", retryURL: "https://app.example/", retrySeconds: 1) }
        let many = inGerman { AppPages.offline(origin: "https://app.example", retryURL: "https://app.example/", retrySeconds: 15) }
        #expect(one.contains("Neuer Versuch in 1 Sekunde."))
        #expect(many.contains("Neuer Versuch in 15 Sekunden."))
        #expect(many.contains(">Jetzt erneut versuchen</a>"))
    }

    @Test func aTranslationIsEscapedLikeAnyTextFromOutside() {
        let hostile = DictionaryTranslator(messages: [
            "Dreams for Littles cannot be reached": "<script>alert(1)</script> & \"nicht\"",
            "Try again now": "<a href='javascript:x'>jetzt</a>",
        ])
        let page = Localization.$scoped.withValue(hostile) {
            AppPages.offline(origin: "https://app.example", retryURL: "https://app.example/", retrySeconds: 2)
        }
        #expect(!page.contains("<script>"))
        #expect(!page.contains("javascript:x'>"))
        #expect(page.contains("<h1>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;nicht&quot;</h1>"))
        #expect(page.contains("&lt;a href=&#39;javascript:x&#39;&gt;jetzt&lt;/a&gt;"))
    }

    @Test func aTranslationThatLosesAPlaceholderFallsBackToEnglish() {
        let broken = DictionaryTranslator(messages: ["This link cannot be opened. {reason}": "Dieser Link geht nicht."])
        let notice = Localization.$scoped.withValue(broken) { AppText.linkRefused(.notTheAppsScheme) }
        #expect(notice == "This link cannot be opened. The link does not start with dreamsforlittles://.")
    }

    @Test func theHeaderBarsTooltipsAreLookedUpWithTheirContext() {
        #expect(inGerman { AppText.backTooltip } == "Zurück")
        #expect(AppText.backTooltip == "Back")
    }

    @Test func aRefusedLinkIsTranslatedWholeAndTheLinkIsNotFilledAgain() {
        let notice = inGerman { AppText.linkRefused(.notTheAppsScheme) }
        #expect(notice == "Dieser Link lässt sich nicht öffnen. Der Link beginnt nicht mit dreamsforlittles://.")
        let line = inGerman { AppCommandLine(arguments: ["dreamsforlittles", "x:{reason}"]).request }
        #expect(line == .refuse("dreamsforlittles: Der Link x:{reason} lässt sich nicht öffnen. "
            + "Der Link beginnt nicht mit dreamsforlittles://.", link: .notTheAppsScheme))
    }

    @Test func theLogSaysWhyInEnglishWhateverTheReadersLanguage() {
        let line = inGerman { AppLogText.refusedLink(.notTheAppsScheme) }
        #expect(line == "Refused a link: it does not start with dreamsforlittles://.")
    }

    @Test func helpAndTheUnknownOptionSpeakTheReadersLanguageWithinSeventyTwoColumns() {
        let help = inGerman { AppText.usage }
        #expect(help.hasPrefix("Aufruf: dreamsforlittles [--help] [LINK]\n"))
        #expect(help.contains("dreamsforlittles://families/FAMILY/babies/BABY/track/sleep?timer=TIMER"))
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 72 })
        let unknown = inGerman { AppCommandLine(arguments: ["dreamsforlittles", "--nope"]).request }
        #expect(unknown == .refuse("dreamsforlittles: Unbekannte Option --nope.\n" + help, link: nil))
    }
}

/// The controls' names and the pages' language in another language, and a
/// catalog's language code kept out of the markup unless it is one.
@Suite struct AppAccessibleTextTests {
    static let german = DictionaryTranslator(
        messages: [
            "tooltip\u{4}Back": "Zurück",
            "accessible description\u{4}Goes back to the previous page": "Geht eine Seite zurück",
            "language code\u{4}en": "de",
            "Dreams for Littles cannot be reached": "Dreams for Littles ist nicht erreichbar",
        ],
        plurals: [:])

    @Test func theBackButtonIsNamedAndDescribedInTheReadersLanguage() {
        let back = Localization.$scoped.withValue(Self.german) { AppAccessibleText.back }
        #expect(back.name == "Zurück" && back.description == "Geht eine Seite zurück")
        let reload = AppAccessibleText.reload
        #expect(reload.name == "Reload" && reload.description == "Loads the page again")
    }

    @Test func aGermanPageSaysItIsGerman() {
        let page = Localization.$scoped.withValue(Self.german) {
            AppPages.offline(origin: "https://app.example", retryURL: "https://app.example/", retrySeconds: 4)
        }
        #expect(page.contains(#"<html lang="de">"#))
        #expect(page.contains("<h1>Dreams for Littles ist nicht erreichbar</h1>"))
    }

    @Test func aLanguageCodeThatIsNoneLeavesEnglish() {
        let broken = DictionaryTranslator(messages: ["language code\u{4}en": #"de" onload="x"#], plurals: [:])
        #expect(Localization.$scoped.withValue(broken) { AppAccessibleText.pageLanguage } == "en")
        #expect(Localization.$scoped.withValue(Self.german) { AppAccessibleText.pageLanguage } == "de")
    }

    @Test func aLanguageCodeMayBeThirtyFiveCharactersLongButNoLonger() {
        let longest = String(repeating: "a", count: 35)
        let kept = DictionaryTranslator(messages: ["language code\u{4}en": longest], plurals: [:])
        #expect(Localization.$scoped.withValue(kept) { AppAccessibleText.pageLanguage } == longest)
        let tooLong = DictionaryTranslator(messages: ["language code\u{4}en": longest + "a"], plurals: [:])
        #expect(Localization.$scoped.withValue(tooLong) { AppAccessibleText.pageLanguage } == "en")
    }
}

/// Lines of the log whose wording depends on a number.
@Suite struct AppTextCountTests {
    @Test func oneRefusalSaysNoCountAndSeveralSayHowMany() {
        #expect(AppLogText.refusalCount(1) == "")
        #expect(AppLogText.refusalCount(3)
            == " (3 refusals of this kind of call since the last such line; one line a minute is written.)")
    }

    @Test func oneApplicationOfTheStyleSaysNoCountAndSeveralSayHowMany() {
        #expect(AppLogText.appearanceCount(1) == "")
        #expect(AppLogText.appearanceCount(4)
            == " (4 applications of the style since the last such line; one line every 5 s at most.)")
    }

    @Test func anAgentAlreadyRunningIsToldFromOneJustStarted() {
        #expect(AppLogText.agentStarted("org.example.Agent", 2) == "The agent at org.example.Agent was already running.")
        #expect(AppLogText.agentStarted("org.example.Agent", 1) == "The agent at org.example.Agent was started.")
    }
}
