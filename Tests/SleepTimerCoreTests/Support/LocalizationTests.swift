import DFLTestSupport
import SleepTimerCore
import Testing

@Suite struct LocalizationTests {
    private func speaking<Result>(_ translator: DictionaryTranslator, _ body: () -> Result) -> Result {
        Localization.$scoped.withValue(translator, operation: body)
    }

    @Test func withoutATranslatorTheEnglishIsSpoken() {
        #expect(tr("{name} is asleep") == "{name} is asleep")
        #expect(trn("{count} min", "{count} min", count: 2) == "{count} min")
        #expect(trc("notification action", "Complete") == "Complete")
    }

    @Test func aScopedTranslatorSpeaksInItsOwnTaskOnly() {
        #expect(speaking(.german) { tr("{name} is asleep") } == "{name} schläft")
        #expect(tr("{name} is asleep") == "{name} is asleep")
    }

    @Test func placeholdersAreFilledAfterTranslationWhereTheTranslationPutsThem() {
        let reordering = DictionaryTranslator(messages: ["{hours} {minutes}": "{minutes} past {hours}"])
        let text = speaking(reordering) { tr("{hours} {minutes}") }.filling(["hours": "1 h", "minutes": "5 min"])
        #expect(text == "5 min past 1 h")
    }

    @Test func aTranslationThatLosesAPlaceholderFallsBackToTheEnglish() {
        let broken = DictionaryTranslator(messages: ["{name} is asleep": "Schläft"])
        #expect(speaking(broken) { tr("{name} is asleep") } == "{name} is asleep")
    }

    @Test func aTranslationThatInventsAPlaceholderFallsBackToTheEnglish() {
        let broken = DictionaryTranslator(messages: ["{name} is asleep": "{nom} dort"])
        #expect(speaking(broken) { tr("{name} is asleep") } == "{name} is asleep")
    }

    @Test func theCountPicksThePluralFormByTheLanguagesRule() {
        let french = DictionaryTranslator(plurals: ["{count} min": ["{count} minute", "{count} minutes"]],
                                          pluralForm: { $0 > 1 ? 1 : 0 })
        #expect(speaking(french) { trn("{count} min", "{count} min", count: 0) } == "{count} minute")
        #expect(speaking(french) { trn("{count} min", "{count} min", count: 1) } == "{count} minute")
        #expect(speaking(french) { trn("{count} min", "{count} min", count: 2) } == "{count} minutes")
    }

    @Test func aPluralFormMayLeaveTheCountOut() {
        let words = DictionaryTranslator(plurals: ["{count} min": ["eine Minute", "{count} Minuten"]])
        #expect(speaking(words) { trn("{count} min", "{count} min", count: 1) } == "eine Minute")
    }

    @Test func theContextTellsTheButtonFromTheSameWordsElsewhere() {
        #expect(speaking(.german) { trc("notification action", "Complete") } == "Fertig")
        #expect(speaking(.german) { trc("timer state", "Complete") } == "Complete")
    }

    @Test func placeholdersAreLettersBetweenBraces() {
        #expect(Localization.placeholders(in: "{name}: {since} [{state}, {x_y}] { } {1} {") == ["name", "since", "state", "x_y"])
    }

    @Test func fillingReplacesEachPlaceholderOnce() {
        #expect("{name} asleep · {elapsed}".filling(["name": "{elapsed}", "elapsed": "3 min"]) == "{elapsed} asleep · 3 min")
    }

    @Test func fillingLeavesUnknownPlaceholdersAndBracesAlone() {
        #expect("{a} {b} { {".filling(["a": "1"]) == "1 {b} { {")
    }
}
