import SleepTimerCore

/// A translator from a dictionary, with a plural rule of its own: a catalog
/// written in the test, for code whose words are the point. Scope it with
/// `Localization.$scoped.withValue(_:operation:)`, so that the tests
/// running beside it keep speaking English.
public struct DictionaryTranslator: Translator {
    /// msgid (or "context\u{4}msgid") to translation.
    public var messages: [String: String]
    /// msgid to every plural form, in the order of `pluralForm`.
    public var plurals: [String: [String]]
    /// Which form a count takes: German's `n != 1`, French's `n > 1`.
    public var pluralForm: @Sendable (Int) -> Int

    public init(
        messages: [String: String] = [:], plurals: [String: [String]] = [:],
        pluralForm: @escaping @Sendable (Int) -> Int = { $0 == 1 ? 0 : 1 }
    ) {
        self.messages = messages
        self.plurals = plurals
        self.pluralForm = pluralForm
    }

    public func translate(_ message: String) -> String { messages[message] ?? message }

    public func translate(_ singular: String, plural: String, count: Int) -> String {
        guard let forms = plurals[singular] else { return count == 1 ? singular : plural }
        return forms[min(pluralForm(count), forms.count - 1)]
    }

    /// A few of the German catalog's words, for tests of the machinery.
    public static let german = DictionaryTranslator(
        messages: [
            "{name} is asleep": "{name} schläft",
            "Asleep since {time} · {elapsed}": "Schläft seit {time} · {elapsed}",
            "Asleep since {weekday}, {time}": "Schläft seit {weekday}, {time}",
            "{hours} {minutes}": "{hours} {minutes}",
            "notification action\u{4}Complete": "Fertig",
        ],
        plurals: [
            "{count} h": ["{count} Stunde", "{count} Stunden"],
            "{count} min": ["{count} Minute", "{count} Minuten"],
        ])
}
