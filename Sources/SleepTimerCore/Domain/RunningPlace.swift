/// Where a program of the project runs: on the host, as the .deb installs
/// it, or inside a Flatpak sandbox. The two differ in what the desktop
/// offers (inside: the portals; only names under the app id activatable or
/// exported; no systemd unit, no XDG autostart entry), so the surfaces are
/// chosen from this one value, read once at start.
public enum RunningPlace: Sendable, Equatable {
    case host
    /// Inside a Flatpak; `appID` is the sandbox's application id, as its
    /// `/.flatpak-info` names it (nil when the file does not say).
    case flatpak(appID: String?)

    /// Where Flatpak puts the sandbox's description, in every sandbox it
    /// makes and nowhere else (libnotify and GLib look for the same file).
    public static let flatpakInfoPath = "/.flatpak-info"

    /// The place the process runs in, from the file's presence and text.
    public static func current() -> RunningPlace {
        let bytes: [UInt8]?
        do {
            bytes = try System.readRegularFile(flatpakInfoPath, limit: 64 * 1024)
        } catch {
            // Something is at the path but could not be read as a file:
            // only a sandbox puts anything there.
            return .flatpak(appID: nil)
        }
        guard let bytes else { return .host }
        return .flatpak(appID: appID(inFlatpakInfo: String(decoding: bytes, as: UTF8.self)))
    }

    /// The `name` key of the `[Application]` group of a `/.flatpak-info`.
    public static func appID(inFlatpakInfo text: String) -> String? {
        var inApplication = false
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingWhitespace
            if line.hasPrefix("[") {
                inApplication = line == "[Application]"
                continue
            }
            guard inApplication, let equals = line.firstIndex(of: "=") else { continue }
            if line[..<equals].trimmingWhitespace == "name" {
                let value = line[line.index(after: equals)...].trimmingWhitespace
                return value.isEmpty ? nil : String(value)
            }
        }
        return nil
    }

    public var isSandboxed: Bool {
        if case .flatpak = self { return true }
        return false
    }
}

extension Substring {
    fileprivate var trimmingWhitespace: Substring {
        var slice = self
        while let first = slice.first, first == " " || first == "\t" || first == "\r" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice = slice.dropLast() }
        return slice
    }
}
