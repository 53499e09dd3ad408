import Testing
import SleepTimerCore

@Suite struct BabyNameTests {
    @Test(arguments: ["Maya", "Zoë", "李小龙", "Ana María", "<b>Leo</b> & Co", "👶🏽", String(repeating: "a", count: 64),
                      String(repeating: "👨‍👩‍👧", count: 10)])
    func acceptsPrintableNamesUpTo64Characters(_ name: String) throws {
        #expect(try BabyName(validating: name).text == name)
    }

    @Test func refusesNamesOver64Characters() {
        #expect(throws: BabyName.Problem.tooLong) { try BabyName(validating: String(repeating: "a", count: 65)) }
        #expect(throws: BabyName.Problem.tooLong) { try BabyName(validating: String(repeating: "é", count: 65)) }
    }

    @Test func refusesACharacterCarryingAPileOfCombiningMarks() {
        let zalgo = "M" + String(repeating: "\u{0301}", count: 300)
        #expect(throws: BabyName.Problem.tooLong) { try BabyName(validating: zalgo) }
    }

    @Test(arguments: ["Ma\nya", "Ma\u{0}ya", "Maya\u{7}", "Ma\u{1b}[31mya", "Ma\u{85}ya", "Ma\u{2028}ya", "\tMaya"])
    func refusesControlCharacters(_ name: String) {
        #expect(throws: BabyName.Problem.controlCharacter) { try BabyName(validating: name) }
    }

    @Test(arguments: ["\u{202E}ayaM", "Ma\u{202A}ya", "Ma\u{2066}ya\u{2069}", "Ma\u{2068}ya"])
    func refusesBidiOverridesEmbeddingsAndIsolates(_ name: String) {
        #expect(throws: BabyName.Problem.bidiControl) { try BabyName(validating: name) }
    }

    @Test(arguments: ["", " ", "\u{3000}"])
    func refusesEmptyNames(_ name: String) {
        #expect(throws: BabyName.Problem.empty) { try BabyName(validating: name) }
    }
}
