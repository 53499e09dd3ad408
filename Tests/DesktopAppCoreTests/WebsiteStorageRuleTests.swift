import DesktopAppCore
import Testing

@Suite struct WebsiteStorageRuleTests {
    @Test func bothFoldersPrivateKeepTheWebsiteData() {
        let storage = WebsiteStorageRule.storage(websiteDataFailure: nil, cacheFailure: nil)
        #expect(storage == .kept)
        #expect(storage.logLine == nil)
    }

    /// Either folder failing keeps everything in memory, and the log says why.
    @Test func aFolderThatCannotBeMadePrivateKeepsNothingOnDisk() {
        let data = WebsiteStorageRule.storage(websiteDataFailure: "The website data folder /h/d is a symbolic link or not a directory; refusing to use it.", cacheFailure: nil)
        #expect(data == .inMemory(because: "The website data folder /h/d is a symbolic link or not a directory; refusing to use it."))
        #expect(data.logLine?.contains("in memory only") == true)
        #expect(data.logLine?.hasSuffix("refusing to use it.") == true)
        let cache = WebsiteStorageRule.storage(websiteDataFailure: nil, cacheFailure: "Cannot make the cache folder /c private (mode 0700): Operation not permitted")
        #expect(cache != .kept)
        let both = WebsiteStorageRule.storage(websiteDataFailure: "A.", cacheFailure: "B.")
        #expect(both == .inMemory(because: "A. B."))
    }
}
