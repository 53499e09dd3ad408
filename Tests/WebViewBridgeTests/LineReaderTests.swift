import Testing
@testable import WebViewBridge

@Suite struct LineReaderTests {
    /// What the reader handed on: lines as text, and "overlong" for each
    /// line that grew past the limit.
    private final class Recorder {
        var events: [String] = []
        let reader: LineReader

        init(limit: Int = 16) {
            reader = LineReader(limit: limit)
            reader.onLine = { [unowned self] in self.events.append(String(decoding: $0, as: UTF8.self)) }
            reader.onOverlong = { [unowned self] in self.events.append("overlong") }
        }

        func feed(_ chunks: String...) {
            for chunk in chunks { reader.consume(Array(chunk.utf8)[...]) }
        }
    }

    @Test func eachCompleteLineIsHandedOnWithoutItsCarriageReturn() {
        let recorder = Recorder()
        recorder.feed("{\"a\":1}\n{\"b\":2}\r\n{\"c\"")
        #expect(recorder.events == ["{\"a\":1}", "{\"b\":2}"])
    }

    @Test func aLineSplitOverChunksIsJoined() {
        let recorder = Recorder()
        recorder.feed("{\"a\"", ":1", "}\n")
        #expect(recorder.events == ["{\"a\":1}"])
    }

    @Test func blankLinesAreSkipped() {
        let recorder = Recorder()
        recorder.feed("\n \t\r\n[]\n")
        #expect(recorder.events == ["[]"])
    }

    @Test func anOverlongLineIsReportedOnceAndSkippedToItsNewline() {
        let recorder = Recorder(limit: 8)
        recorder.feed("0123456789", "abcdefghij", "klm\n[1]\n")
        #expect(recorder.events == ["overlong", "[1]"])
    }

    @Test func theEndDeliversALastLineWithoutNewline() {
        let recorder = Recorder()
        recorder.feed("[1]\n[2]")
        recorder.reader.end()
        #expect(recorder.events == ["[1]", "[2]"])
    }

    @Test func theEndOfAnOverlongLineDeliversNothingMore() {
        let recorder = Recorder(limit: 4)
        recorder.feed("0123456789")
        recorder.reader.end()
        #expect(recorder.events == ["overlong"])
    }
}
