/// When the notification's elapsed time is updated in place.
public enum LiveElapsedMode: String, Sendable, CaseIterable {
    /// Updated, except on servers that alert again on every update.
    case auto
    case on
    case off
}

/// When the panel indicator (a StatusNotifierItem) is shown.
public enum IndicatorVisibility: String, Sendable, CaseIterable {
    /// While a Sleep timer is mirrored and a StatusNotifierWatcher (a panel
    /// that shows such items) is on the bus.
    case auto
    /// Also with no timer (as a passive item) and with no watcher yet.
    case always
    /// Never: the agent publishes no item.
    case never
}

/// The agent's settings, from `dreamsforlittles/sleep-agent.conf` in the
/// XDG configuration directories. Every key may be left out, and the file
/// too: the defaults below apply, among them the product's own origins
/// (`ProductOrigins`) for `allowed-origins` and `web-origin`.
///
/// ```
/// [platform]
/// allowed-origins=https://api.example.com;
/// pinned-public-keys=sha256//…=;
/// ca-file=/etc/ssl/private-ca.pem
/// proxy=http://proxy.example.com:3128
///
/// [app]
/// web-origin=https://app.example.com
/// deep-link-base=dreamsforlittles://
/// url-opener=/usr/bin/xdg-open
/// background=on
///
/// [notifications]
/// live-elapsed=auto
///
/// [indicator]
/// show=auto
///
/// [timers]
/// renew-before-expiry-minutes=30
/// max-token-lifetime-hours=24
/// ```
public struct Configuration: Sendable, Equatable {
    /// The platform origins timers (and their tokens) may come from: the
    /// product's API unless the configuration names others, which replace
    /// it (an empty list set there refuses every timer).
    public var allowedOrigins: AllowedOrigins = ProductOrigins.allowedOrigins
    public var deepLinkBase: DeepLinkBase = .default
    /// Public-key pins for the platform's TLS certificates, in the form
    /// curl takes (`sha256//` and the base64 SHA-256 of the key); empty
    /// means the system's CA store alone decides.
    public var pinnedPublicKeys: [String] = []
    /// A PEM file of certificate authorities to trust for the platform
    /// instead of the system's store: for a platform with a private CA.
    public var certificateAuthorities: String?
    /// The proxy the platform is reached through, an http or https
    /// origin; nil (the default): none. Only this setting chooses one: the
    /// proxy variables of the environment are never read, since any
    /// process of the user can set them for the whole session.
    public var proxy: APIOrigin?
    public var liveElapsed: LiveElapsedMode = .auto
    public var indicator: IndicatorVisibility = .auto
    /// The program that opens deep links instead of xdg-open: an absolute
    /// path, called with the link as its one argument.
    public var urlOpener: String?
    /// The origin of the web app: what the desktop app loads, and where a
    /// link opens in the default browser when the app is not installed.
    /// The product's web app unless the configuration names another.
    public var webOrigin: APIOrigin = ProductOrigins.webApp
    /// Whether the agent starts the app in the background when a token is
    /// due for renewal and no bridge renews it, and for timers it brings
    /// back from the store at its start ([app] background, on by default).
    public var appInBackground = true
    /// How long before a mirrored token expires the agent asks the app for
    /// a new one ([timers] renew-before-expiry-minutes).
    public var renewalLead: Duration = .seconds(30 * 60)
    /// The longest token lifetime a Mirror may bring ([timers]
    /// max-token-lifetime-hours): the platform issues tokens for hours.
    public var maximumTokenLifetime: Duration = .seconds(24 * 3600)

    /// The file's name inside each configuration directory.
    public static let relativePath = "dreamsforlittles/sleep-agent.conf"
    /// Larger files are refused rather than read.
    public static let maximumFileSize = 64 * 1024

    public init() {}

    /// Reads and checks the text of a configuration file, read as a key
    /// file by `keyFiles`. `fileName` is used only in error messages.
    public init(parsing text: String, fileName: String, keyFiles: any KeyFileParsing) throws(ConfigurationError) {
        let keyFile: KeyFileContents
        do {
            keyFile = try keyFiles.parse(text)
        } catch {
            throw ConfigurationError(file: fileName, line: error.line, group: nil, key: nil, message: error.message)
        }
        try self.init(keyFile, fileName: fileName)
    }

    /// Checks a configuration file's groups and keys.
    public init(_ keyFile: KeyFileContents, fileName: String) throws(ConfigurationError) {
        for group in keyFile.groups {
            guard let known = Self.knownKeys[group.name] else {
                throw ConfigurationError(
                    file: fileName, line: group.line, group: group.name, key: nil,
                    message: "unknown group; the groups are [platform], [app], [notifications], [indicator] and [timers]")
            }
            for entry in group.entries {
                guard known.contains(entry.key) else {
                    throw ConfigurationError(
                        file: fileName, line: entry.line, group: group.name, key: entry.key,
                        message: "unknown key; the keys of [\(group.name)] are \(known.joined(separator: ", "))")
                }
                try apply(entry, group: group.name, fileName: fileName)
            }
        }
        try checkRenewalLead(keyFile, fileName: fileName)
    }

    /// A lead as long as the longest token would make every token due for
    /// renewal the moment it arrives. (Only a lead set in the file can be:
    /// the shortest lifetime allowed is longer than the default lead.)
    private func checkRenewalLead(_ keyFile: KeyFileContents, fileName: String) throws(ConfigurationError) {
        guard renewalLead >= maximumTokenLifetime else { return }
        let key = "renew-before-expiry-minutes"
        let entry = keyFile.groups.first { $0.name == "timers" }?.entries.last { $0.key == key }
        throw ConfigurationError(
            file: fileName, line: entry?.line, group: "timers", key: key,
            message: "renew-before-expiry-minutes (\(renewalLead.components.seconds / 60)) must be shorter than max-token-lifetime-hours (\(maximumTokenLifetime.components.seconds / 3600) h)")
    }

    private static let knownKeys: [String: [String]] = [
        "platform": ["allowed-origins", "pinned-public-keys", "ca-file", "proxy"],
        "app": ["web-origin", "deep-link-base", "url-opener", "background"],
        "notifications": ["live-elapsed"],
        "indicator": ["show"],
        "timers": ["renew-before-expiry-minutes", "max-token-lifetime-hours"],
    ]

    /// The bounds of the [timers] settings: a renewal at least a minute and
    /// at most a day ahead; tokens of an hour up to 30 days (the platform
    /// issues them for hours).
    public static let renewalLeadMinutes: ClosedRange<Int64> = 1...1440
    public static let maximumTokenLifetimeHours: ClosedRange<Int64> = 1...720

    private mutating func apply(_ entry: KeyFileContents.Entry, group: String, fileName: String) throws(ConfigurationError) {
        let value = EntryValue(entry: entry, group: group, fileName: fileName)
        switch entry.key {
        case "allowed-origins":
            var origins: [APIOrigin] = []
            for item in try value.list() {
                do {
                    origins.append(try APIOrigin(parsing: item))
                } catch {
                    throw value.fail("\(item) \(error.explanation)")
                }
            }
            allowedOrigins = AllowedOrigins(origins)
        case "pinned-public-keys":
            let pins = try value.list()
            for pin in pins where !Self.isPublicKeyPin(pin) {
                throw value.fail("\(pin) is not a pin of the form sha256// followed by the base64 SHA-256 of a public key")
            }
            pinnedPublicKeys = pins
        case "deep-link-base":
            let text = try value.single()
            do {
                deepLinkBase = try DeepLinkBase(parsing: text)
            } catch {
                throw value.fail("\(text) \(error.explanation)")
            }
        case "url-opener":
            urlOpener = try value.absolutePath("the absolute path of a program")
        case "web-origin":
            let text = try value.single()
            do {
                webOrigin = try APIOrigin(parsing: text)
            } catch {
                throw value.fail("\(text) \(error.explanation)")
            }
        case "ca-file":
            certificateAuthorities = try value.absolutePath("the absolute path of a PEM file of certificate authorities")
        case "proxy":
            let text = try value.single()
            guard !text.isEmpty else {
                proxy = nil
                return
            }
            do {
                proxy = try APIOrigin(parsing: text, plainHTTPAnywhere: true)
            } catch {
                // The value is not repeated: it may hold a password.
                throw value.fail("must be a proxy of the form http://host:port or https://host:port, without a user name, password or path")
            }
        case "background":
            let text = try value.single()
            switch text {
            case "on": appInBackground = true
            case "off": appInBackground = false
            default: throw value.fail("must be on or off, not \(text)")
            }
        case "live-elapsed":
            let text = try value.single()
            guard let mode = LiveElapsedMode(rawValue: text) else { throw value.fail("must be auto, on or off, not \(text)") }
            liveElapsed = mode
        case "show":
            let text = try value.single()
            guard let visibility = IndicatorVisibility(rawValue: text) else {
                throw value.fail("must be auto, always or never, not \(text)")
            }
            indicator = visibility
        case "renew-before-expiry-minutes":
            renewalLead = .seconds(try value.wholeNumber(in: Self.renewalLeadMinutes, of: "minutes") * 60)
        case "max-token-lifetime-hours":
            maximumTokenLifetime = .seconds(try value.wholeNumber(in: Self.maximumTokenLifetimeHours, of: "hours") * 3600)
        default:
            throw value.fail("unknown key")
        }
    }

    /// One entry's value read as a list, a single value or a path, with
    /// errors that name the file, line, group and key.
    private struct EntryValue {
        let entry: KeyFileContents.Entry
        let group: String
        let fileName: String

        func fail(_ message: String) -> ConfigurationError {
            ConfigurationError(file: fileName, line: entry.line, group: group, key: entry.key, message: message)
        }

        /// The items, each trimmed of spaces and tabs; empty ones (as a
        /// trailing `;` leaves) dropped.
        func list() throws(ConfigurationError) -> [String] {
            guard let items = entry.list else {
                throw fail("contains an escape other than \\s \\n \\t \\r \\\\ \\;")
            }
            return items.map { $0.trimmingSpacesAndTabs() }.filter { !$0.isEmpty }
        }

        func single() throws(ConfigurationError) -> String {
            guard let value = entry.value else {
                throw fail("contains an escape other than \\s \\n \\t \\r \\\\")
            }
            return value.trimmingSpacesAndTabs()
        }

        /// A whole number in `range`, in digits only (no sign, no unit).
        func wholeNumber(in range: ClosedRange<Int64>, of unit: String) throws(ConfigurationError) -> Int64 {
            let text = try single()
            let expected = "must be a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)"
            guard let number = digits(text, count: 1...18) else {
                throw fail("\(expected), not \(text.isEmpty ? "nothing" : text)")
            }
            guard range.contains(number) else { throw fail("\(expected), not \(number)") }
            return number
        }

        func absolutePath(_ what: String) throws(ConfigurationError) -> String {
            let value = try single()
            guard value.hasPrefix("/"), !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw fail("must be \(what)")
            }
            return value
        }
    }

    /// `sha256//` and the base64 of 32 bytes: 43 characters of the base64
    /// alphabet and one `=` of padding. A check of the shape, which is all
    /// a pin needs here: curl decodes it.
    static func isPublicKeyPin(_ pin: String) -> Bool {
        guard pin.hasPrefix("sha256//") else { return false }
        let encoded = Array(pin.utf8.dropFirst("sha256//".utf8.count))
        return encoded.count == 44 && encoded.last == UInt8(ascii: "=") && encoded[42] != UInt8(ascii: "=")
            && Base64Text.isStrict(encoded)
    }
}

/// A configuration file that cannot be used, naming the file, and the line
/// and key where that helps.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let group: String?
    public let key: String?
    public let message: String

    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let group, let key { return "\(location): [\(group)] \(key): \(message)" }
        if let group { return "\(location): [\(group)]: \(message)" }
        return "\(location): \(message)"
    }
}

extension Configuration {
    /// The configuration file the agent uses: the first that exists of
    /// $XDG_CONFIG_HOME (default ~/.config) and then each of
    /// $XDG_CONFIG_DIRS (default /etc/xdg). Relative paths in those
    /// variables are ignored, as the XDG Base Directory specification asks.
    public static func searchPaths(environment: [String: String]) -> [String] {
        var directories: [String] = []
        if let home = environment["XDG_CONFIG_HOME"], home.hasPrefix("/") {
            directories.append(home)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            directories.append(home + "/.config")
        }
        let systemDirectories = environment["XDG_CONFIG_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg"
        directories += systemDirectories.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return directories.map { "\($0)/\(relativePath)" }
    }

    /// Loads the first configuration file found, read as a key file by
    /// `keyFiles`, or the defaults when there is none. `contents` reads a file; it returns nil when the file does
    /// not exist and throws when it exists but cannot be read.
    public static func load(
        environment: [String: String],
        keyFiles: any KeyFileParsing,
        contents: (String) throws -> [UInt8]? = Configuration.readFile
    ) throws(ConfigurationError) -> (configuration: Configuration, file: String?) {
        for path in searchPaths(environment: environment) {
            let data: [UInt8]?
            do {
                data = try contents(path)
            } catch let error as FileReadError {
                throw ConfigurationError(file: path, line: nil, group: nil, key: nil, message: error.description)
            } catch {
                throw ConfigurationError(
                    file: path, line: nil, group: nil, key: nil, message: "cannot be read (\(error))")
            }
            guard let data else { continue }
            guard data.count <= maximumFileSize else {
                throw ConfigurationError(
                    file: path, line: nil, group: nil, key: nil,
                    message: "is larger than \(maximumFileSize / 1024) KiB, which no configuration needs")
            }
            guard let text = String(validating: data, as: UTF8.self) else {
                throw ConfigurationError(file: path, line: nil, group: nil, key: nil, message: "is not valid UTF-8")
            }
            return (try Configuration(parsing: text, fileName: path, keyFiles: keyFiles), path)
        }
        return (Configuration(), nil)
    }

    /// A file's bytes, or nil when there is no file at `path`. A file larger
    /// than `maximumFileSize` is read only one byte beyond it, which is
    /// enough for `load` to refuse it. The file must be a regular file at
    /// the path itself: a symbolic link is refused, not followed, so that
    /// what configures the agent is the file its directory holds.
    public static func readFile(_ path: String) throws(FileReadError) -> [UInt8]? {
        try System.readRegularFile(path, limit: maximumFileSize + 1)
    }
}
