import DFLTestSupport
import Foundation
import Testing
import GLibParsing
import SleepTimerCore

@Suite struct ConfigurationTests {
    private func parse(_ text: String) throws(ConfigurationError) -> Configuration {
        try Configuration(parsing: text, fileName: "/home/p/.config/dreamsforlittles/sleep-agent.conf", keyFiles: GLibKeyFiles())
    }

    private func failure(_ text: String) -> ConfigurationError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    static let pin = "sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE="

    @Test func aCompleteFileSetsEverySetting() throws {
        let configuration = try parse("""
            # Dreams for Littles desktop agent
            [platform]
            allowed-origins = https://api.dreamsforlittles.example;http://127.0.0.1:8443;
            pinned-public-keys=\(Self.pin)
            ca-file=/etc/dreamsforlittles/ca.pem
            proxy=http://Proxy.Example.com:3128

            [app]
            deep-link-base=https://app.dreamsforlittles.example
            url-opener=/usr/local/bin/open-in-app

            [notifications]
            live-elapsed=off

            [indicator]
            show=never

            [timers]
            renew-before-expiry-minutes=20
            max-token-lifetime-hours=12
            """)
        #expect(configuration.allowedOrigins.origins.map(\.description)
            == ["https://api.dreamsforlittles.example", "http://127.0.0.1:8443"])
        #expect(configuration.pinnedPublicKeys == [Self.pin])
        #expect(configuration.certificateAuthorities == "/etc/dreamsforlittles/ca.pem")
        #expect(configuration.proxy?.description == "http://proxy.example.com:3128")
        #expect(configuration.deepLinkBase.description == "https://app.dreamsforlittles.example")
        #expect(configuration.liveElapsed == .off)
        #expect(configuration.urlOpener == "/usr/local/bin/open-in-app")
        #expect(configuration.indicator == .never)
        #expect(configuration.renewalLead == .seconds(20 * 60))
        #expect(configuration.maximumTokenLifetime == .seconds(12 * 3600))
    }

    /// A list's items are trimmed of spaces and tabs and empty ones dropped,
    /// as a trailing `;` leaves one.
    @Test func listItemsAreTrimmedAndEmptyOnesDropped() throws {
        let configuration = try parse("[platform]\nallowed-origins= https://a.example ;;\thttps://b.example\t;\n")
        #expect(configuration.allowedOrigins.origins.map(\.description) == ["https://a.example", "https://b.example"])
        #expect(try parse("[platform]\nallowed-origins=\n").allowedOrigins.origins.isEmpty)
    }

    @Test func theTimersGroupSetsTheRenewalLeadAndTheLongestTokenLifetime() throws {
        let configuration = try parse("[timers]\nrenew-before-expiry-minutes = 45\nmax-token-lifetime-hours=13\n")
        #expect(configuration.renewalLead == .seconds(45 * 60))
        #expect(configuration.maximumTokenLifetime == .seconds(13 * 3600))
    }

    @Test func withoutTheTimersGroupTokensAreRenewedHalfAnHourAheadAndLastADayAtMost() throws {
        let configuration = try parse("[notifications]\nlive-elapsed=on\n")
        #expect(configuration.renewalLead == .seconds(30 * 60))
        #expect(configuration.maximumTokenLifetime == .seconds(24 * 3600))
    }

    @Test(arguments: [
        ("renew-before-expiry-minutes=0", "must be a whole number of minutes from 1 to 1440, not 0"),
        ("renew-before-expiry-minutes=1441", "must be a whole number of minutes from 1 to 1440, not 1441"),
        ("renew-before-expiry-minutes=-5", "must be a whole number of minutes from 1 to 1440, not -5"),
        ("renew-before-expiry-minutes=30m", "must be a whole number of minutes from 1 to 1440, not 30m"),
        ("renew-before-expiry-minutes=", "must be a whole number of minutes from 1 to 1440, not nothing"),
        ("renew-before-expiry-minutes=99999999999999999999", "must be a whole number of minutes from 1 to 1440, not 99999999999999999999"),
        ("max-token-lifetime-hours=0", "must be a whole number of hours from 1 to 720, not 0"),
        ("max-token-lifetime-hours=1.5", "must be a whole number of hours from 1 to 720, not 1.5"),
        ("max-token-lifetime-hours=721", "must be a whole number of hours from 1 to 720, not 721"),
    ])
    func badTimerSettingsAreRefusedWithTheirRange(_ line: String, _ message: String) throws {
        let error = try #require(failure("[timers]\n\(line)\n"))
        #expect(error.line == 2)
        #expect(error.group == "timers")
        #expect(error.message == message)
    }

    @Test func aRenewalLeadAsLongAsTheLongestTokenIsRefused() throws {
        let error = try #require(failure("[timers]\nrenew-before-expiry-minutes=120\nmax-token-lifetime-hours=2\n"))
        #expect(error.line == 2)
        #expect(error.key == "renew-before-expiry-minutes")
        #expect(error.message == "renew-before-expiry-minutes (120) must be shorter than max-token-lifetime-hours (2 h)")
    }

    @Test func theLeadIsCheckedAgainstTheLifetimeWhicheverComesFirst() throws {
        let error = try #require(failure("[timers]\n# tokens of a quarter hour\nmax-token-lifetime-hours=1\nrenew-before-expiry-minutes=60\n"))
        #expect(error.line == 4)
        let fine = try parse("[timers]\nmax-token-lifetime-hours=1\nrenew-before-expiry-minutes=59\n")
        #expect(fine.renewalLead == .seconds(59 * 60))
    }

    @Test func theShippedFileWithEverySettingUncommentedParses() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appending(path: "packaging/config/sleep-agent.conf")
        let shipped = try String(contentsOf: path, encoding: .utf8)
        let settings = shipped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("#") && line.contains("=") && !line.hasPrefix("# ") ? String(line.dropFirst()) : String(line)
        }
        let configuration = try parse(settings.joined(separator: "\n"))
        #expect(configuration.renewalLead == .seconds(30 * 60))
        #expect(configuration.maximumTokenLifetime == .seconds(24 * 3600))
        #expect(configuration.liveElapsed == .auto)
        #expect(configuration.proxy?.description == "http://proxy.example.com:3128")
        // The file names the platform's own addresses as the defaults.
        #expect(configuration.allowedOrigins == ProductOrigins.allowedOrigins)
        #expect(configuration.webOrigin == ProductOrigins.webApp)
    }

    @Test func theShippedFileAsItIsSetsNothing() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appending(path: "packaging/config/sleep-agent.conf")
        #expect(try parse(String(contentsOf: path, encoding: .utf8)) == Configuration())
    }

    @Test func theWebOriginIsReadNormalisedAndTheProductsWebAppByDefault() throws {
        let configuration = try parse("[app]\nweb-origin=HTTPS://App.Example:443\n")
        #expect(configuration.webOrigin.description == "https://app.example")
        #expect(Configuration().webOrigin.description == "https://app.dreamsforlittles.com")
        #expect(try parse("[platform]\nallowed-origins=https://api.example;\n").webOrigin == ProductOrigins.webApp)
    }

    @Test func withNoAllowedOriginsSetOnlyTheProductsAPIIsAllowed() throws {
        let allowed = Configuration().allowedOrigins
        #expect(allowed.origins.map(\.description) == ["https://api.dreamsforlittles.com"])
        #expect(allowed.contains(try APIOrigin(parsing: "https://API.dreamsforlittles.com:443")))
        #expect(!allowed.contains(try APIOrigin(parsing: "https://api.dreamsforlittles.example")))
        #expect(!allowed.contains(ProductOrigins.webApp))
        #expect(try parse("[app]\nweb-origin=https://app.example\n").allowedOrigins == ProductOrigins.allowedOrigins)
    }

    @Test func setAllowedOriginsReplaceTheProductsAPI() throws {
        let configuration = try parse("[platform]\nallowed-origins=https://api.example;http://127.0.0.1:8443;\n")
        #expect(configuration.allowedOrigins.origins.map(\.description) == ["https://api.example", "http://127.0.0.1:8443"])
        #expect(!configuration.allowedOrigins.contains(ProductOrigins.api))
    }

    @Test func anEmptyAllowedOriginsListAllowsNothing() throws {
        #expect(try parse("[platform]\nallowed-origins=\n").allowedOrigins.origins.isEmpty)
    }

    /// The constants are built without a parse; parsing their text gives
    /// the same origins, so they compare equal to what a file or a Mirror
    /// names.
    @Test func theProductsOriginsAreWhatParsingTheirAddressesGives() throws {
        #expect(ProductOrigins.webApp == (try APIOrigin(parsing: "https://app.dreamsforlittles.com")))
        #expect(ProductOrigins.api == (try APIOrigin(parsing: "https://api.dreamsforlittles.com")))
        #expect(ProductOrigins.allowedOrigins == AllowedOrigins([ProductOrigins.api]))
    }

    @Test func anEmptyFileKeepsTheDefaults() throws {
        let configuration = try parse("# nothing\n\n")
        #expect(configuration == Configuration())
        #expect(configuration.deepLinkBase == .default)
        #expect(configuration.liveElapsed == .auto)
        #expect(configuration.indicator == .auto)
        #expect(configuration.allowedOrigins == ProductOrigins.allowedOrigins)
        #expect(configuration.webOrigin == ProductOrigins.webApp)
        #expect(configuration.proxy == nil)
    }

    @Test func aProxyIsAnHTTPOrHTTPSOriginAndAnEmptyOneIsNone() throws {
        #expect(try parse("[platform]\nproxy=https://proxy.example:443\n").proxy?.description == "https://proxy.example")
        #expect(try parse("[platform]\nproxy=http://10.0.0.1:8080\n").proxy?.description == "http://10.0.0.1:8080")
        #expect(try parse("[platform]\nproxy=\n").proxy == nil)
        let error = try #require(failure("[platform]\nproxy=socks5://proxy.example:1080\n"))
        #expect(error.description.hasSuffix(
            "[platform] proxy: must be a proxy of the form http://host:port or https://host:port, without a user name, password or path"))
    }

    @Test func aProxyWithAPasswordIsRefusedWithoutRepeatingIt() throws {
        let error = try #require(failure("[platform]\nproxy=http://user:s3cret@proxy.example:3128\n"))
        #expect(!error.description.contains("s3cret"))
    }

    @Test func errorsNameTheFileTheLineAndTheKey() throws {
        let error = try #require(failure("[platform]\nallowed-origins=https://a.example\n\n[notifications]\nlive-elapsed=maybe\n"))
        #expect(error.line == 5)
        #expect(error.key == "live-elapsed")
        #expect(error.description == "/home/p/.config/dreamsforlittles/sleep-agent.conf:5: [notifications] live-elapsed: must be auto, on or off, not maybe")
    }

    @Test func theIndicatorSettingNamesItsValues() throws {
        #expect(try parse("[indicator]\nshow=always\n").indicator == .always)
        let error = try #require(failure("[indicator]\nshow=sometimes\n"))
        #expect(error.description.hasSuffix(":2: [indicator] show: must be auto, always or never, not sometimes"))
    }

    @Test func theBackgroundSettingIsOnUnlessTurnedOff() throws {
        #expect(try parse("").appInBackground)
        #expect(try parse("[app]\nbackground=on\n").appInBackground)
        #expect(try !parse("[app]\nbackground=off\n").appInBackground)
        let error = try #require(failure("[app]\nbackground=yes\n"))
        #expect(error.description.hasSuffix(":2: [app] background: must be on or off, not yes"))
    }

    @Test(arguments: [
        ("[platform]\nallowed-origins=http://api.example.com\n", 2, "allowed-origins"),
        ("[platform]\nallowed-origins=https://a.example/v1\n", 2, "allowed-origins"),
        ("[platform]\npinned-public-keys=sha256//short\n", 2, "pinned-public-keys"),
        ("[platform]\npinned-public-keys=sha1//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE=\n", 2, "pinned-public-keys"),
        // 31 bytes, not a SHA-256 digest's 32.
        ("[platform]\npinned-public-keys=sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMw==\n", 2, "pinned-public-keys"),
        ("[app]\ndeep-link-base=javascript://\n", 2, "deep-link-base"),
        ("[app]\n\ndeep-link-base=https://app.example/x\n", 3, "deep-link-base"),
        ("[notifications]\nlive-elapsed=ON\n", 2, "live-elapsed"),
        ("[notifications]\nlive_elapsed=on\n", 2, "live_elapsed"),
        ("[notifications]\nlive-elapsed=on\nlive-elapsed=off\n", 3, nil),
        ("[platform]\nallowed-origins=https://a.example\\q\n", 2, "allowed-origins"),
        ("[app]\nurl-opener=xdg-open\n", 2, "url-opener"),
        ("[platform]\nca-file=ca.pem\n", 2, "ca-file"),
        ("[app]\nweb-origin=https://app.example/sign-in\n", 2, "web-origin"),
        ("[app]\nweb-origin=http://app.example\n", 2, "web-origin"),
        ("[app]\nweb-origin=dreamsforlittles://\n", 2, "web-origin"),
        ("[indicator]\nshow=yes\n", 2, "show"),
        ("[indicator]\nshow=auto\nhide=always\n", 3, "hide"),
        ("[platform]\nproxy=http://proxy.example:3128/path\n", 2, "proxy"),
        ("[platform]\nproxy=proxy.example:3128\n", 2, "proxy"),
    ] as [(String, Int, String?)])
    func badValuesAreRefusedAtTheirLine(_ text: String, _ line: Int, _ key: String?) throws {
        let error = try #require(failure(text))
        #expect(error.line == line)
        if let key { #expect(error.key == key) }
        #expect(error.file.hasSuffix("sleep-agent.conf"))
    }

    @Test(arguments: [
        ("allowed-origins=https://a.example\n", 1),
        ("[platform\n", 1),
        ("[platform] x\n", 1),
        ("[]\n", 1),
        ("[platform]\njust some words\n", 2),
        ("[platform]\n=value\n", 2),
        ("[platform]\n[platform]\n", 2),
        ("[colours]\n", 1),
    ])
    func syntaxErrorsNameTheirLine(_ text: String, _ line: Int) throws {
        let error = try #require(failure(text))
        #expect(error.line == line)
    }

    @Test func searchesXDGConfigHomeThenConfigDirs() {
        #expect(Configuration.searchPaths(environment: ["HOME": "/home/p"])
            == ["/home/p/.config/dreamsforlittles/sleep-agent.conf", "/etc/xdg/dreamsforlittles/sleep-agent.conf"])
        #expect(Configuration.searchPaths(environment: [
            "HOME": "/home/p", "XDG_CONFIG_HOME": "/c", "XDG_CONFIG_DIRS": "/a:relative:/b",
        ]) == ["/c/dreamsforlittles/sleep-agent.conf", "/a/dreamsforlittles/sleep-agent.conf", "/b/dreamsforlittles/sleep-agent.conf"])
        #expect(Configuration.searchPaths(environment: ["HOME": "/home/p", "XDG_CONFIG_HOME": "relative"]).first
            == "/home/p/.config/dreamsforlittles/sleep-agent.conf")
    }

    @Test func loadsTheFirstFileFound() throws {
        let files: [String: String] = [
            "/etc/xdg/dreamsforlittles/sleep-agent.conf": "[notifications]\nlive-elapsed=on\n",
            "/b/dreamsforlittles/sleep-agent.conf": "[notifications]\nlive-elapsed=off\n",
        ]
        let loaded = try Configuration.load(environment: ["HOME": "/home/p", "XDG_CONFIG_DIRS": "/etc/xdg:/b"], keyFiles: GLibKeyFiles()) {
            files[$0].map { Array($0.utf8) }
        }
        #expect(loaded.file == "/etc/xdg/dreamsforlittles/sleep-agent.conf")
        #expect(loaded.configuration.liveElapsed == .on)
        let none = try Configuration.load(environment: ["HOME": "/home/p"], keyFiles: GLibKeyFiles()) { _ in nil }
        #expect(none.file == nil)
        #expect(none.configuration == Configuration())
    }

    @Test func aSymbolicallyLinkedFileIsRefusedInWords() throws {
        let directory = TemporaryDirectory()
        let target = "\(directory.path)/real.conf"
        try Data("[notifications]\nlive-elapsed=on\n".utf8).write(to: URL(filePath: target))
        try FileManager.default.createDirectory(atPath: "\(directory.path)/dreamsforlittles", withIntermediateDirectories: true)
        let path = "\(directory.path)/dreamsforlittles/sleep-agent.conf"
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        do {
            _ = try Configuration.load(environment: ["HOME": "/h", "XDG_CONFIG_HOME": directory.path], keyFiles: GLibKeyFiles())
            Issue.record("a symbolic link was followed")
        } catch {
            #expect(error.description == "\(path): is a symbolic link, which is not followed; put the file itself there")
        }
    }

    @Test func aFileOfTwoHundredMegabytesIsRefusedAfterReadingJustPastTheLimit() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: "\(directory.path)/dreamsforlittles", withIntermediateDirectories: true)
        let path = "\(directory.path)/dreamsforlittles/sleep-agent.conf"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, 200 << 20) == 0)
        var largest = 0
        do {
            _ = try Configuration.load(environment: ["HOME": "/h", "XDG_CONFIG_HOME": directory.path], keyFiles: GLibKeyFiles()) { path in
                let bytes = try Configuration.readFile(path)
                largest = max(largest, bytes?.count ?? 0)
                return bytes
            }
            Issue.record("an oversized file was accepted")
        } catch {
            #expect(error.message.contains("larger than 64 KiB"))
        }
        #expect(largest == Configuration.maximumFileSize + 1)
    }

    @Test func unreadableOversizedAndNonUTF8FilesNameTheFile() {
        struct Unreadable: Error {}
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["HOME": "/h"], keyFiles: GLibKeyFiles()) { _ in throw Unreadable() }
        }
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["HOME": "/h"], keyFiles: GLibKeyFiles()) { _ in [UInt8](repeating: 0, count: 65 * 1024) }
        }
        do {
            _ = try Configuration.load(environment: ["HOME": "/h"], keyFiles: GLibKeyFiles()) { _ in [0xFF, 0xFE] }
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error.file == "/h/.config/dreamsforlittles/sleep-agent.conf")
            #expect(error.message.contains("UTF-8"))
        }
    }
}
