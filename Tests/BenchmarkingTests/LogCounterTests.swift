import Foundation
import Testing
@testable import Benchmarking

@Suite struct LogCounterTests {
    @Test func countsAPhraseCutInTwoByTheWritesAndReadsOnlyWhatIsNew() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dfl-log-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let counter = LogCounter(path: path, phrase: "will be tried again")
        counter.readNew()
        #expect(counter.count == 0)
        #expect(FileManager.default.createFile(atPath: path, contents: Data("a will be tried again\nb will be tri".utf8)))
        counter.readNew()
        #expect(counter.count == 1)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("ed again\nwill be tried againwill be tried again\nwill".utf8))
        try handle.close()
        counter.readNew()
        #expect(counter.count == 4)
        counter.readNew()
        #expect(counter.count == 4)
    }
}
