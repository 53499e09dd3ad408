import DesktopAppCore
import Testing

@Suite struct WebsiteStorageTests {
    @Test func bothFoldersPrivateKeepTheWebsiteData() {
        let storage = WebsiteStorage.decide(websiteDataFailure: nil, cacheFailure: nil)
        #expect(storage == .kept)
        #expect(storage.logLine == nil)
    }

    /// Either folder failing keeps everything in memory, and the log says why.
    @Test func aFolderThatCannotBeMadePrivateKeepsNothingOnDisk() {
        let data = WebsiteStorage.decide(websiteDataFailure: "The website data folder /h/d is a symbolic link or not a directory; refusing to use it.", cacheFailure: nil)
        #expect(data == .inMemory(because: "The website data folder /h/d is a symbolic link or not a directory; refusing to use it."))
        #expect(data.logLine?.contains("in memory only") == true)
        #expect(data.logLine?.hasSuffix("refusing to use it.") == true)
        let cache = WebsiteStorage.decide(websiteDataFailure: nil, cacheFailure: "Cannot make the cache folder /c private (mode 0700): Operation not permitted")
        #expect(cache != .kept)
        let both = WebsiteStorage.decide(websiteDataFailure: "A.", cacheFailure: "B.")
        #expect(both == .inMemory(because: "A. B."))
    }
}
