import SleepTimerCore
import Testing

@Suite struct TextLayoutTests {
    @Test func linesBreakAtSpacesBeforeTheWidth() {
        #expect(TextLayout.wrap("one two three four", width: 9) == "one two\nthree\nfour")
    }

    @Test func aLineMayFillTheWidthExactly() {
        #expect(TextLayout.wrap("ab cd", width: 5) == "ab cd")
        #expect(TextLayout.wrap("ab cde", width: 5) == "ab\ncde")
    }

    @Test func aHangingIndentCountsTowardsTheWidth() {
        #expect(TextLayout.wrap("one two three", width: 10, indent: 4) == "one\n    two\n    three")
    }

    @Test func aWordLongerThanALineGetsALineOfItsOwn() {
        #expect(TextLayout.wrap("a 2026-11-29T21:41:00Z b", width: 8) == "a\n2026-11-29T21:41:00Z\nb")
    }

    @Test func lineBreaksInTheTextAreKept() {
        #expect(TextLayout.wrap("one\n\ntwo", width: 72) == "one\n\ntwo")
    }
}
