import Testing
@testable import SleepTimerCore

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

@Suite struct BabyNameCleaningTests {
    private func cleaned(_ text: String) -> String? { BabyName(cleaning: text)?.text }

    @Test(arguments: ["Maya", "Zoë", "李小龙", "Ana María", "<b>Leo</b> & Co", "👶🏽", String(repeating: "a", count: 64),
                      String(repeating: "👨‍👩‍👧", count: 10)])
    func leavesANameTheDesktopCanShowAsItIs(_ name: String) {
        #expect(cleaned(name) == name)
    }

    @Test(arguments: [("Maya\nRose", "Maya Rose"), ("Maya\r\n", "Maya"), ("\tMaya", "Maya"), ("Ma\u{2028}ya", "Ma ya"),
                      ("Maya \n Rose", "Maya Rose"), ("Maya  Rose", "Maya Rose")])
    func turnsLineBreaksAndTabsIntoOneSpace(_ name: String, _ shown: String) {
        #expect(cleaned(name) == shown)
    }

    @Test(arguments: [("Ma\u{0}ya", "Maya"), ("Maya\u{7}", "Maya"), ("Ma\u{1b}[31mya", "Ma[31mya"), ("Ma\u{7f}ya\u{9b}", "Maya")])
    func dropsOtherControlCharacters(_ name: String, _ shown: String) {
        #expect(cleaned(name) == shown)
    }

    @Test(arguments: [("\u{202E}ayaM", "ayaM"), ("Ma\u{202A}ya\u{202C}", "Maya"), ("\u{2067}Maya\u{2069}", "Maya"),
                      ("Maya\u{2068}", "Maya")])
    func dropsBidirectionalOverridesEmbeddingsAndIsolates(_ name: String, _ shown: String) {
        #expect(cleaned(name) == shown)
    }

    @Test func cutsALongNameToSixtyFourCharactersEndingInAnEllipsis() throws {
        let shown = try #require(cleaned(String(repeating: "a", count: 200)))
        #expect(shown == String(repeating: "a", count: 63) + "…")
        #expect(shown.count == BabyName.maximumCharacters)
    }

    @Test func cutsBetweenCharactersNeverInsideOne() throws {
        let family = "👨‍👩‍👧"
        let shown = try #require(cleaned(String(repeating: family, count: 70)))
        #expect(shown.last == "…")
        #expect(shown.dropLast().allSatisfy { $0 == Character(family) })
        #expect(shown.unicodeScalars.count <= BabyName.maximumScalars)
        let accented = try #require(cleaned(String(repeating: "e\u{301}", count: 100)))
        #expect(accented == String(repeating: "é", count: 63) + "…")
    }

    @Test func keepsANameOfExactlyTheMostScalarsWhole() {
        // 64 characters of four code points each: 256.
        let name = String(repeating: "e\u{301}\u{302}\u{303}", count: 64)
        #expect(name.count == BabyName.maximumCharacters && name.unicodeScalars.count == BabyName.maximumScalars)
        #expect(cleaned(name) == name)
    }

    @Test func cutsAtTheScalarBoundLeavingRoomForTheEllipsis() throws {
        // Characters of eight code points: 31 of them and "…" make 249; a
        // 32nd would make 257.
        let character = "e\u{301}\u{302}\u{303}\u{304}\u{306}\u{307}\u{308}"
        let shown = try #require(cleaned(String(repeating: character, count: 40)))
        #expect(shown == String(repeating: character, count: 31) + "…")
    }

    @Test func dropsTheSpaceBeforeTheEllipsis() {
        #expect(cleaned(String(repeating: "a", count: 62) + " " + String(repeating: "b", count: 10))
            == String(repeating: "a", count: 62) + "…")
    }

    @Test func keepsTheFirstMarksOfACharacterCarryingAPileOfThem() throws {
        let shown = try #require(cleaned("Zalgo M" + String(repeating: "\u{301}", count: 300) + "aya"))
        #expect(Array(shown.unicodeScalars.prefix(8)) == Array("Zalgo M\u{301}".unicodeScalars))
        #expect(shown.hasSuffix("aya"))
        #expect(shown.unicodeScalars.count == "Zalgo ".count + BabyName.maximumScalarsPerCharacter + 3)
    }

    @Test(arguments: ["", " ", "\u{3000}", "\n\t", "\u{202E}\u{202C}", "\u{0}\u{1}"])
    func givesNothingWhenNothingPrintableIsLeft(_ name: String) {
        #expect(BabyName(cleaning: name) == nil)
    }

    @Test(arguments: [String(repeating: "x\u{202E}\n", count: 300), "\u{202E}" + String(repeating: "👶🏽 ", count: 100),
                      String(repeating: "\u{301}", count: 40) + "Maya", "Maya" + String(repeating: "\u{200D}", count: 600)])
    func whatItGivesIsANameTheAgentAccepts(_ name: String) throws {
        let shown = try #require(cleaned(name))
        #expect((try? BabyName(validating: shown)) != nil)
    }
}
