/// Looks up the words a person reads in their language.
///
/// The core stays free of C: the gettext catalogs are read by a translator
/// that each program installs at its start (DFLGettext's), and until then,
/// and in every test that does not scope another, English is spoken.
public protocol Translator: Sendable {
    /// The translation of `message`, or `message` itself when there is none.
    func translate(_ message: String) -> String
    /// The form of `singular`/`plural` for `count` in the translation's
    /// language, or in English (`singular` for 1) when there is none.
    func translate(_ singular: String, plural: String, count: Int) -> String
}

/// The sources' own language: every message is its own translation.
public struct EnglishTranslator: Translator {
    public init() {}
    public func translate(_ message: String) -> String { message }
    public func translate(_ singular: String, plural: String, count: Int) -> String { count == 1 ? singular : plural }
}

/// The translator in force.
///
/// Every user-visible sentence goes through `tr`, `trn` or `trc` with its
/// English text as a literal (a `StaticString`, so nothing else compiles):
/// the literal is the catalog's msgid, which `make pot` extracts from the
/// sources. Variable parts are named placeholders (`{name}`), filled after
/// translation by `filling`, so that a translation puts them where its
/// language needs them. Journal lines and D-Bus error messages stay
/// English: developers read and search them.
public enum Localization {
    /// Set once by `install`, at the start of `main`, before any thread is
    /// started; only read afterwards.
    nonisolated(unsafe) private static var installed: any Translator = EnglishTranslator()

    /// A translator for the current task and its children only: lets a test
    /// speak another language without touching what other tests, running in
    /// parallel, read.
    @TaskLocal public static var scoped: (any Translator)?

    /// Makes `translator` the process's. Call once, before any thread starts.
    public static func install(_ translator: any Translator) { installed = translator }

    static var current: any Translator { scoped ?? installed }

    /// `translated` when it names the same placeholders as the English
    /// text, else the English: a catalog that lost or misspelt a
    /// placeholder would otherwise drop a baby's name from a sentence or
    /// show "{name}" to a parent. A plural form may leave `{count}` out
    /// ("eine Minute"); nothing may add a placeholder.
    static func checked(_ translated: String, english: String, alsoEnglish: String? = nil) -> String {
        guard translated != english else { return translated }
        var expected = placeholders(in: english)
        if let alsoEnglish { expected.formUnion(placeholders(in: alsoEnglish)) }
        let found = placeholders(in: translated)
        let optional: Set<String> = alsoEnglish == nil ? [] : ["count"]
        return found.isSubset(of: expected) && expected.subtracting(optional).isSubset(of: found) ? translated : english
    }

    /// The names between braces: `{name}`, `{count}`; a brace around
    /// anything but letters and underscores is text, not a placeholder.
    public static func placeholders(in text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            rest = rest[rest.index(after: open)...]
            guard let close = rest.firstIndex(of: "}") else { break }
            let name = rest[..<close]
            if !name.isEmpty, name.allSatisfy({ $0 == "_" || ($0.isASCII && $0.isLetter) }) {
                names.insert(String(name))
                rest = rest[rest.index(after: close)...]
            }
        }
        return names
    }
}

/// `message` in the reader's language.
public func tr(_ message: StaticString) -> String {
    let english = message.description
    return Localization.checked(Localization.current.translate(english), english: english)
}

/// The form of a sentence with a number in it for `count`, in the reader's
/// language (which may have more than two forms); `{count}` is left for
/// `filling`.
public func trn(_ singular: StaticString, _ plural: StaticString, count: Int) -> String {
    let one = singular.description
    let many = plural.description
    let english = count == 1 ? one : many
    let translated = Localization.current.translate(one, plural: many, count: count)
    return Localization.checked(translated, english: english, alsoEnglish: english == one ? many : one)
}

/// `message` in the reader's language, where the same English words mean
/// different things in different places ("Complete" the button, not the
/// adjective): gettext's msgctxt, as pgettext looks it up.
public func trc(_ context: StaticString, _ message: StaticString) -> String {
    let english = message.description
    let key = context.description + "\u{4}" + english
    let translated = Localization.current.translate(key)
    return translated == key ? english : Localization.checked(translated, english: english)
}

extension String {
    /// The template with each `{key}` replaced by its value. Values are
    /// inserted once and never scanned again, so a baby named "{elapsed}"
    /// stays "{elapsed}"; a brace that names no value stays as it is.
    public func filling(_ values: [String: String]) -> String {
        var result = ""
        var rest = Substring(self)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}"),
                let value = values[String(rest[afterOpen..<close])]
            else {
                result.append("{")
                rest = rest[afterOpen...]
                continue
            }
            result += value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
