import AgentWorkflows
import DFLTestSupport
import SleepTimerCore
import Testing

@Suite struct SleepSearchRuleTests {
    typealias F = WorkflowFixtures
    let now = F.now
    let rule = SleepSearchRule(searchWords: ["sleep", "asleep", "sleeping", "Schläft"])

    func ids(_ results: [SleepSearchRule.Result]) -> [TimerID] { results.map(\.id) }

    // MARK: Matching

    @Test func aBabysNameFindsHerRunningSleep() {
        #expect(ids(rule.results(for: ["maya"], among: [F.timer(1), F.timer(2, name: "Leo")], now: now)) == [F.id(1)])
    }

    @Test func theBeginningOfANameFindsIt() {
        #expect(ids(rule.results(for: ["ma"], among: [F.timer(1)], now: now)) == [F.id(1)])
    }

    /// "ay" is inside "Maya", not at the start of a word.
    @Test func aMiddleOfANameFindsNothing() {
        #expect(rule.results(for: ["aya"], among: [F.timer(1)], now: now).isEmpty)
    }

    @Test func anyWordOfTheNameFindsIt() {
        let timers = [F.timer(1, name: "Anne-Marie Dupont")]
        #expect(ids(rule.results(for: ["marie"], among: timers, now: now)) == [F.id(1)])
        #expect(ids(rule.results(for: ["dup"], among: timers, now: now)) == [F.id(1)])
        #expect(ids(rule.results(for: ["anne-m"], among: timers, now: now)) == [F.id(1)])
    }

    @Test func caseDoesNotMatter() {
        #expect(ids(rule.results(for: ["MAYA"], among: [F.timer(1, name: "maya")], now: now)) == [F.id(1)])
    }

    @Test func accentsDoNotMatterEitherWay() {
        #expect(ids(rule.results(for: ["zoe"], among: [F.timer(1, name: "Zoë")], now: now)) == [F.id(1)])
        #expect(ids(rule.results(for: ["ZOË"], among: [F.timer(1, name: "Zoe")], now: now)) == [F.id(1)])
        // A combining accent, as a keyboard may type it.
        #expect(ids(rule.results(for: ["Zoe\u{308}"], among: [F.timer(1, name: "Zoe")], now: now)) == [F.id(1)])
        #expect(ids(rule.results(for: ["ines"], among: [F.timer(1, name: "INÉS")], now: now)) == [F.id(1)])
    }

    @Test func aSearchWordFindsEveryRunningSleep() {
        let timers = [F.timer(1), F.timer(2, name: "Leo")]
        #expect(ids(rule.results(for: ["sleep"], among: timers, now: now)) == [F.id(1), F.id(2)])
        #expect(ids(rule.results(for: ["aslee"], among: timers, now: now)) == [F.id(1), F.id(2)])
    }

    /// The reader's language's words are folded as typed words are.
    @Test func aTranslatedSearchWordFindsItWithoutItsAccent() {
        #expect(ids(rule.results(for: ["schlaft"], among: [F.timer(1)], now: now)) == [F.id(1)])
    }

    @Test func everyTermMustMatch() {
        let timers = [F.timer(1), F.timer(2, name: "Leo")]
        #expect(ids(rule.results(for: ["maya", "sleep"], among: timers, now: now)) == [F.id(1)])
        #expect(rule.results(for: ["maya", "nap"], among: timers, now: now).isEmpty)
        // KRunner's query is one term of words.
        #expect(ids(rule.results(for: ["maya asleep"], among: timers, now: now)) == [F.id(1)])
    }

    @Test func anUnrelatedTermFindsNothing() {
        #expect(rule.results(for: ["firefox"], among: [F.timer(1)], now: now).isEmpty)
    }

    @Test func noTimerFindsNothing() {
        #expect(rule.results(for: ["sleep"], among: [], now: now).isEmpty)
    }

    @Test func fewerThanTwoCharactersInAllFindNothing() {
        #expect(rule.results(for: ["m"], among: [F.timer(1)], now: now).isEmpty)
        #expect(rule.results(for: [], among: [F.timer(1)], now: now).isEmpty)
        #expect(rule.results(for: ["", " - "], among: [F.timer(1)], now: now).isEmpty)
        // Two terms of one letter each are two characters.
        #expect(ids(rule.results(for: ["m", "s"], among: [F.timer(1)], now: now)) == [F.id(1)])
    }

    /// A query longer than any name is not folded at all; its length is
    /// counted in Unicode scalars (a combining accent is one more).
    @Test func moreThanTheLongestQueryInAllFindsNothing() {
        func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }
        let longest = SleepSearchRule.longestQuery
        #expect(ids(rule.results(for: ["maya" + spaces(longest - 4)], among: [F.timer(1)], now: now)) == [F.id(1)])
        #expect(rule.results(for: ["maya" + spaces(longest - 3)], among: [F.timer(1)], now: now).isEmpty)
        #expect(ids(rule.results(for: ["maya" + spaces(longest - 6), "a\u{301}"], among: [F.timer(1)], now: now)) == [F.id(1)])
        #expect(rule.results(for: ["maya" + spaces(longest - 5), "a\u{301}"], among: [F.timer(1)], now: now).isEmpty)
    }

    // MARK: Which Sleeps

    /// A Sleep completed on the desktop has ended, whatever became of its
    /// saving.
    @Test func aCompletedSleepIsNotFound() {
        for completion in CompletionState.allCases {
            #expect(rule.results(for: ["maya"], among: [F.timer(1, completion: completion)], now: now).isEmpty)
        }
    }

    /// The app finishes one the desktop can no longer complete.
    @Test func aRunningSleepWhoseTokenRanOutIsFound() {
        let results = rule.results(for: ["maya"], among: [F.timer(1, token: false)], now: now)
        #expect(ids(results) == [F.id(1)])
        #expect(results.first?.canComplete == false)
    }

    @Test func resultsComeInTheListOrder() {
        let timers = [
            F.timer(3, name: "Mia", startedAt: now.plus(seconds: -60)),
            F.timer(2, name: "Max", startedAt: now.plus(seconds: -600)),
            F.timer(1, name: "Maya", startedAt: now.plus(seconds: -60)),
        ]
        #expect(ids(rule.results(for: ["m"], among: timers, now: now)).isEmpty)
        #expect(ids(rule.results(for: ["sleep"], among: timers, now: now)) == [F.id(2), F.id(1), F.id(3)])
    }

    // MARK: What a result says

    @Test func aResultSaysWhoIsAsleepAndHowLong() {
        let result = rule.results(for: ["maya"], among: [F.timer(1)], now: now)
        #expect(result == [SleepSearchRule.Result(
            id: F.id(1), name: "Maya asleep", description: "1 h 23 min", exact: true, canComplete: true)])
    }

    @Test func aResultHoldsNoToken() {
        let result = rule.results(for: ["maya"], among: [F.timer(1)], now: now)[0]
        #expect(!"\(result)".contains(Fixtures.canary))
    }

    @Test func aResultIsExactOnlyWhenEveryTermIsAWholeWord() {
        let timers = [F.timer(1)]
        #expect(rule.results(for: ["maya", "asleep"], among: timers, now: now).first?.exact == true)
        #expect(rule.results(for: ["maya", "asl"], among: timers, now: now).first?.exact == false)
        #expect(rule.results(for: ["may"], among: timers, now: now).first?.exact == false)
    }

    @Test func aResultSaysItCanBeCompletedWhileItsTokenIsValid() {
        #expect(rule.results(for: ["maya"], among: [F.timer(1)], now: now).first?.canComplete == true)
        #expect(rule.results(for: ["maya"], among: [F.timer(1, expiresAt: now)], now: now).first?.canComplete == false)
    }

    @Test func theResultsTextsAreInTheReadersLanguage() {
        let german = DictionaryTranslator(messages: ["{name} asleep": "{name} schläft"], plurals: DictionaryTranslator.german.plurals)
        Localization.$scoped.withValue(german) {
            let result = rule.results(for: ["maya"], among: [F.timer(1)], now: now).first
            #expect(result?.name == "Maya schläft")
            #expect(result?.description == DisplayText.elapsed(from: F.timer(1).timer.startedAt, to: now))
        }
    }

    // MARK: Narrowing and showing

    @Test func aNarrowedSearchFindsOnlyAmongThePreviousResults() {
        let timers = [F.timer(1), F.timer(2, name: "Leo")]
        #expect(ids(rule.results(for: ["sleep"], within: [F.id(2).string], among: timers, now: now)) == [F.id(2)])
        #expect(rule.results(for: ["maya"], within: [F.id(2).string], among: timers, now: now).isEmpty)
        #expect(rule.results(for: ["sleep"], within: ["not-an-id"], among: timers, now: now).isEmpty)
    }

    @Test func theResultsAskedForComeInTheOrderAsked() {
        let timers = [F.timer(1), F.timer(2, name: "Leo")]
        let results = SleepSearchRule.results(for: [F.id(2).string, F.id(1).string], among: timers, now: now)
        #expect(ids(results) == [F.id(2), F.id(1)])
        #expect(results.map(\.name) == ["Leo asleep", "Maya asleep"])
        // An id names its Sleep whole.
        #expect(results.allSatisfy { $0.exact })
    }

    /// A Sleep that ended meanwhile, an id never held and no id at all
    /// have nothing to show.
    @Test func theResultsAskedForLeaveOutWhatIsNotRunning() {
        let timers = [F.timer(1), F.timer(2, name: "Leo", completion: .pending)]
        let asked = [F.id(3).string, "maya", F.id(2).string, F.id(1).string.uppercased()]
        #expect(ids(SleepSearchRule.results(for: asked, among: timers, now: now)) == [F.id(1)])
    }

    // MARK: Words

    @Test func wordsAreFoldedAndSplitAtWhatIsNotALetterOrADigit() {
        #expect(SleepSearchRule.words(of: "Anne-Marie O'Brien 2") == ["anne", "marie", "o", "brien", "2"])
        #expect(SleepSearchRule.words(of: "  Ñandú  ") == ["nandu"])
        #expect(SleepSearchRule.words(of: "Łucja Øre") == ["lucja", "ore"])
        #expect(SleepSearchRule.words(of: "ß") == ["ß"])
        #expect(SleepSearchRule.words(of: "Ζωή") == ["ζωή"])
        #expect(SleepSearchRule.words(of: "") == [])
    }

    @Test func theSearchWordsAreFoldedOnce() {
        #expect(SleepSearchRule(searchWords: ["Schläft", "sleep asleep"]).searchWords == ["schlaft", "sleep", "asleep"])
    }

    @Test func theSearchWordsAreTheEnglishAndTheReadersLanguages() {
        #expect(SleepSearchText.searchWords == ["sleep", "asleep", "sleeping", "sleep", "asleep", "sleeping"])
        let german = DictionaryTranslator(messages: ["search words\u{4}sleep asleep sleeping": "schlaf schläft"])
        Localization.$scoped.withValue(german) {
            #expect(SleepSearchText.searchWords == ["sleep", "asleep", "sleeping", "schlaf", "schläft"])
        }
    }
}
