import Foundation
import SleepTimersAPI
import Testing

/// AppIdentity is the one source of the programs' ids and version; the
/// packaging states them too, and these tests fail when it says otherwise.
@Suite struct AppIdentityTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func shipped(_ path: String) throws -> String {
        try String(contentsOf: repository.appending(path: path), encoding: .utf8)
    }

    @Test func theDebianChangelogsNewestEntryIsThisVersion() throws {
        let firstLine = try #require(try Self.shipped("packaging/debian/changelog").split(separator: "\n").first)
        #expect(firstLine.hasPrefix("dreamsforlittles-desktop (\(AppIdentity.version)-"))
    }

    @Test func theMetainfosNewestReleaseIsThisVersion() throws {
        let metainfo = try Self.shipped("packaging/metainfo/\(AppIdentity.appID).metainfo.xml")
        let newest = try #require(metainfo.range(of: "<release version=\""))
        #expect(metainfo[newest.upperBound...].hasPrefix("\(AppIdentity.version)\""))
        #expect(metainfo.contains("<id>\(AppIdentity.appID)</id>"))
    }

    @Test func everyManualPageNamesThisVersion() throws {
        for page in ["dfl-sleep-agent.1", "dfl-sleepctl.1", "dfl-webview-bridge.1", "dreamsforlittles.1", "sleep-agent.conf.5"] {
            let header = try #require(try Self.shipped("packaging/man/\(page)").split(separator: "\n").first { $0.hasPrefix(".TH ") })
            #expect(header.contains("\"dreamsforlittles\\-desktop \(AppIdentity.version)\""), "\(page)")
        }
    }

    @Test func theFlatpakAndTheDesktopEntriesAreNamedForTheseIDs() throws {
        #expect(try Self.shipped("packaging/flatpak/\(AppIdentity.appID).yml").contains("\napp-id: \(AppIdentity.appID)\n"))
        #expect(try Self.shipped("packaging/desktop/\(AppIdentity.appID).desktop").contains("[Desktop Entry]"))
        #expect(try Self.shipped("packaging/desktop/\(AppIdentity.agentID).desktop").contains("[Desktop Entry]"))
    }

    @Test func theVersionsNumbersAreItsThreePartsInOrder() {
        #expect(AppIdentity.versionNumbers.count == 3)
        #expect(AppIdentity.versionNumbers.map(String.init).joined(separator: ".") == AppIdentity.version)
    }

    @Test func theAppsObjectPathIsItsIDAsAPath() {
        #expect(AppIdentity.appObjectPath == "/com/dreamsforlittles/DreamsForLittles")
    }
}
