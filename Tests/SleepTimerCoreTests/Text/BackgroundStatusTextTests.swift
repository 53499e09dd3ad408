import DFLTestSupport
import SleepTimerCore
import Testing

@Suite struct BackgroundStatusTextTests {
    typealias Sleeper = BackgroundStatusText.Sleeper
    let maya = Sleeper(name: "Maya", since: "9:40 PM")
    let leo = Sleeper(name: "Leo", since: "10:05 PM")
    let ada = Sleeper(name: "Ada", since: "10:30 PM")

    @Test func noBabyAsleepIsAnEmptyLine() {
        #expect(BackgroundStatusText.line([]) == "")
    }

    @Test func oneBabyIsHerNameAndWhenSheFellAsleep() {
        #expect(BackgroundStatusText.line([maya]) == "Maya asleep since 9:40 PM")
    }

    @Test func severalBabiesThatFitAreEachWithTheirTimeInTheOrderGiven() {
        #expect(BackgroundStatusText.line([maya, leo]) == "Maya asleep since 9:40 PM · Leo since 10:05 PM")
        #expect(BackgroundStatusText.line([maya, leo, ada])
            == "Maya asleep since 9:40 PM · Leo since 10:05 PM · Ada since 10:30 PM")
    }

    @Test func babiesThatDoNotFitAreTheFirstAndHowManyMore() {
        let many = [maya] + (1...6).map { Sleeper(name: "Baby \($0)", since: "11:0\($0) PM") }
        #expect(BackgroundStatusText.line(many) == "Maya and 6 others asleep")
        let two = [maya, Sleeper(name: String(repeating: "L", count: 70), since: "10:05 PM")]
        #expect(BackgroundStatusText.line(two) == "Maya and 1 other asleep")
    }

    @Test func aNameTooLongForTheLineIsCutShortWithAnEllipsisAndTheLineIsFull() {
        let long = Sleeper(name: String(repeating: "A", count: 120), since: "9:40 PM")
        let line = BackgroundStatusText.line([long])
        #expect(BackgroundStatusText.length(line) == BackgroundStatusText.limit)
        #expect(line.hasSuffix("… asleep since 9:40 PM"))
        let withOthers = BackgroundStatusText.line([long, leo])
        #expect(BackgroundStatusText.length(withOthers) == BackgroundStatusText.limit)
        #expect(withOthers.hasSuffix("… and 1 other asleep"))
    }

    @Test func theLineIsMeasuredInCodePointsAsThePortalCountsThem() {
        // "é" written as e and a combining accent: one character, two code
        // points; the portal counts two.
        let name = String(repeating: "e\u{301}", count: 50)
        let line = BackgroundStatusText.line([Sleeper(name: name, since: "9:40 PM")])
        #expect(line.unicodeScalars.count <= 96)
        #expect(line.contains("e\u{301}…"), "cut between whole characters, never inside one")
    }

    @Test func neverLongerThanTheLimitWhateverTheNamesAndCounts() {
        for count in 1...40 {
            for length in [1, 10, 30, 64, 100] {
                let sleepers = (0..<count).map { _ in Sleeper(name: String(repeating: "n", count: length), since: "12:59 AM") }
                #expect(BackgroundStatusText.length(BackgroundStatusText.line(sleepers)) <= 96)
            }
        }
    }

    @Test func aTranslationIsFittedAsWrittenWithItsPlaceholdersFilled() {
        let german = DictionaryTranslator(
            messages: ["{name} asleep since {time}": "{name} schläft seit {time}", "{name} since {time}": "{name} seit {time}"],
            plurals: ["{name} and {count} other asleep": ["{name} und {count} weiteres Kind schlafen",
                                                          "{name} und {count} weitere Kinder schlafen"]])
        Localization.$scoped.withValue(german) {
            let maya = Sleeper(name: "Maya", since: "21:40")
            let leo = Sleeper(name: "Leo", since: "22:05")
            #expect(BackgroundStatusText.line([maya, leo]) == "Maya schläft seit 21:40 · Leo seit 22:05")
            let many = [maya] + (1...8).map { Sleeper(name: "Kind \($0)", since: "23:0\($0)") }
            #expect(BackgroundStatusText.line(many) == "Maya und 8 weitere Kinder schlafen")
        }
    }
}
