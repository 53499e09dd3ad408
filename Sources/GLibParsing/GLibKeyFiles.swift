import CDFLGLib
import SleepTimerCore

/// Key files read by GLib's GKeyFile, every line numbered.
///
/// GKeyFile reports no line numbers and merges a repeated group or key
/// into one, while the configuration's refusals name their line and a
/// repeat is refused (KeyFileContents). The format has no construct that
/// spans lines, so each line is loaded on its own (a key line under its
/// group's header): GKeyFile judges every line, the line's number is known
/// and a repeat is seen.
public struct GLibKeyFiles: KeyFileParsing {
    public init() {}

    public func parse(_ text: String) throws(KeyFileSyntaxError) -> KeyFileContents {
        var contents = KeyFileContents()
        var lineNumber = 0
        // "\r\n" is one Character in Swift, so both line ends are named.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let alone = try Self.load(String(line), line: lineNumber)
            switch alone {
            case .loaded(let file):
                // A group header, or a comment or blank line.
                if let name = file.groups.first {
                    guard !contents.groups.contains(where: { $0.name == name }) else {
                        throw KeyFileSyntaxError(line: lineNumber, message: "group [\(name)] appears twice")
                    }
                    contents.groups.append(KeyFileContents.Group(name: name, line: lineNumber))
                }
            case .keyOutsideGroup(let error):
                // A key=value line: GKeyFile wants a group before it.
                guard let group = contents.groups.last else { throw error }
                let wrapped = try Self.load("[\(group.name)]\n\(line)", line: lineNumber)
                guard case .loaded(let file) = wrapped, let key = file.keys(of: group.name).first else {
                    throw KeyFileSyntaxError(line: lineNumber, message: "not a key=value line")
                }
                guard !group.entries.contains(where: { $0.key == key }) else {
                    throw KeyFileSyntaxError(line: lineNumber, message: "key \(key) appears twice in group [\(group.name)]")
                }
                contents.groups[contents.groups.count - 1].entries.append(
                    KeyFileContents.Entry(
                        key: key, line: lineNumber, value: file.string(group.name, key), list: file.list(group.name, key)))
            }
        }
        return contents
    }

    private enum Loaded {
        case loaded(GLibKeyFile)
        case keyOutsideGroup(KeyFileSyntaxError)
    }

    private static func load(_ text: String, line: Int) throws(KeyFileSyntaxError) -> Loaded {
        let file = GLibKeyFile()
        var error: UnsafeMutablePointer<GError>?
        if g_key_file_load_from_data(file.file, text, gsize(text.utf8.count), DFL_G_KEY_FILE_NONE, &error) != 0 {
            return .loaded(file)
        }
        let code = error.flatMap { $0.pointee.domain == g_key_file_error_quark() ? $0.pointee.code : nil }
        // The messages are the program's own, by GLib's error code: GLib's
        // are translated into the session's language, and the journal's
        // lines stay English.
        let message =
            switch code {
            case gint(G_KEY_FILE_ERROR_GROUP_NOT_FOUND.rawValue): "a key=value line comes before any [group]"
            case gint(G_KEY_FILE_ERROR_PARSE.rawValue):
                "a line must be a [group] (a name without [, ] or control characters), a key=value pair or a # comment"
            default: "is not a key file (\(error.map { String(cString: $0.pointee.message) } ?? "no reason given"))"
            }
        g_clear_error(&error)
        let syntaxError = KeyFileSyntaxError(line: line, message: message)
        if code == gint(G_KEY_FILE_ERROR_GROUP_NOT_FOUND.rawValue) { return .keyOutsideGroup(syntaxError) }
        throw syntaxError
    }
}

/// One GKeyFile, freed with its owner.
private final class GLibKeyFile {
    let file = g_key_file_new()!

    deinit { g_key_file_free(file) }

    var groups: [String] {
        var count: gsize = 0
        guard let names = g_key_file_get_groups(file, &count) else { return [] }
        defer { g_strfreev(names) }
        return (0..<Int(count)).compactMap { names[$0].map { String(cString: $0) } }
    }

    func keys(of group: String) -> [String] {
        var count: gsize = 0
        guard let keys = g_key_file_get_keys(file, group, &count, nil) else { return [] }
        defer { g_strfreev(keys) }
        return (0..<Int(count)).compactMap { keys[$0].map { String(cString: $0) } }
    }

    /// nil when the value holds an escape GKeyFile does not know. GKeyFile
    /// reports such an escape only to a caller that asks for the error:
    /// without one it returns the value with the escape left in.
    func string(_ group: String, _ key: String) -> String? {
        var error: UnsafeMutablePointer<GError>?
        let value = g_key_file_get_string(file, group, key, &error)
        defer { g_free(value) }
        guard error == nil, let value else {
            g_clear_error(&error)
            return nil
        }
        return String(cString: value)
    }

    func list(_ group: String, _ key: String) -> [String]? {
        var count: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        let items = g_key_file_get_string_list(file, group, key, &count, &error)
        defer { g_strfreev(items) }
        guard error == nil, let items else {
            g_clear_error(&error)
            return nil
        }
        return (0..<Int(count)).compactMap { items[$0].map { String(cString: $0) } }
    }
}
