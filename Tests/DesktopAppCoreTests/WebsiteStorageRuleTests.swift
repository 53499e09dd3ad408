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

/// Each entry beneath the app's folders: private, tightened, or a refusal.
@Suite struct WebsiteStorageEntryTests {
    @Test func aPrivateFileOrFolderIsKept() {
        #expect(WebsiteStorageRule.entry(.file, at: "/d/f", ownedByUser: true, mode: 0o100600) == .keep)
        #expect(WebsiteStorageRule.entry(.directory, at: "/d/s", ownedByUser: true, mode: 0o040700) == .keep)
        #expect(WebsiteStorageRule.entry(.file, at: "/d/f", ownedByUser: true, mode: 0o100400) == .keep)
    }

    @Test func groupAndOtherBitsAreTakenOff() {
        #expect(WebsiteStorageRule.entry(.file, at: "/d/f", ownedByUser: true, mode: 0o100644) == .tighten(mode: 0o600))
        #expect(WebsiteStorageRule.entry(.directory, at: "/d/s", ownedByUser: true, mode: 0o040755) == .tighten(mode: 0o700))
        #expect(WebsiteStorageRule.entry(.other, at: "/d/p", ownedByUser: true, mode: 0o010666) == .tighten(mode: 0o600))
        #expect(WebsiteStorageRule.entry(.file, at: "/d/f", ownedByUser: true, mode: 0o104700) == .tighten(mode: 0o700))
        #expect(WebsiteStorageRule.entry(.file, at: "/d/f", ownedByUser: true, mode: 0o100001) == .tighten(mode: 0o000))
    }

    /// A link is never followed, whatever its own mode; it refuses the folder.
    @Test func aSymbolicLinkRefusesTheFolder() {
        #expect(WebsiteStorageRule.entry(.symbolicLink, at: "/d/storage", ownedByUser: true, mode: 0o120777)
            == .refuse(because: "/d/storage is a symbolic link; refusing to write through it."))
        #expect(WebsiteStorageRule.entry(.symbolicLink, at: "/d/storage", ownedByUser: false, mode: 0o120700)
            == .refuse(because: "/d/storage is a symbolic link; refusing to write through it."))
    }

    @Test func anotherUsersEntryRefusesTheFolderAndIsNotChanged() {
        #expect(WebsiteStorageRule.entry(.file, at: "/d/f", ownedByUser: false, mode: 0o100644)
            == .refuse(because: "/d/f belongs to another user; refusing to use it."))
        #expect(WebsiteStorageRule.entry(.directory, at: "/d/s", ownedByUser: false, mode: 0o040700)
            == .refuse(because: "/d/s belongs to another user; refusing to use it."))
    }
}
