import SleepTimerCore

/// What the desktop's search (GNOME Shell's overview, KRunner) finds among
/// the Sleeps the agent holds: a running Sleep whose baby's name, or one of
/// the search words ("sleep", "asleep" and the reader's language's), begins
/// with every word typed, whatever its case and accents. The results are
/// display text and the timer's id, never a token.
public struct SleepSearchRule: Sendable {
    /// The words besides a baby's name that find every running Sleep,
    /// folded as typed words are.
    public let searchWords: [String]

    /// Typed words of fewer letters in all find nothing: one letter would
    /// find every baby.
    public static let fewestCharacters = 2

    /// Terms longer than this in all (in Unicode scalars) find nothing: a
    /// name has at most 64 characters, and a longer query from any process
    /// on the bus is not worth folding.
    public static let longestQuery = 256

    public init(searchWords: [String]) {
        self.searchWords = searchWords.flatMap(Self.words(of:))
    }

    /// A running Sleep found: its id (the result's id), "Maya asleep", and
    /// how long she has slept.
    public struct Result: Sendable, Equatable {
        public let id: TimerID
        /// "Maya asleep".
        public let name: String
        /// "1 h 37 min".
        public let description: String
        /// Every typed word is a whole word of the name or a search word,
        /// not only the beginning of one.
        public let exact: Bool
        /// The desktop can complete it now (running, its token valid).
        public let canComplete: Bool

        public init(id: TimerID, name: String, description: String, exact: Bool, canComplete: Bool) {
            self.id = id
            self.name = name
            self.description = description
            self.exact = exact
            self.canComplete = canComplete
        }
    }

    /// The running Sleeps every typed word finds, in the list order.
    /// `terms` are what the search hands over (GNOME's terms, or KRunner's
    /// query as one term); each is read as the words in it.
    public func results(for terms: [String], among timers: some Sequence<StoredTimer>, now: Instant) -> [Result] {
        guard terms.reduce(0, { $0 + $1.unicodeScalars.count }) <= Self.longestQuery else { return [] }
        let typed = terms.flatMap(Self.words(of:))
        guard typed.reduce(0, { $0 + $1.count }) >= Self.fewestCharacters else { return [] }
        return Self.running(timers).compactMap { stored in
            let words = Self.words(of: stored.timer.babyName.text) + searchWords
            guard typed.allSatisfy({ word in words.contains { $0.hasPrefix(word) } }) else { return nil }
            return Self.result(stored, exact: typed.allSatisfy(words.contains), now: now)
        }
    }

    /// A search narrowed by more typing: only the results found before
    /// (`previous`, their ids) can be found again.
    public func results(
        for terms: [String], within previous: [String], among timers: some Sequence<StoredTimer>, now: Instant
    ) -> [Result] {
        let kept = Set(previous.compactMap { TimerID($0) })
        return results(for: terms, among: timers.filter { kept.contains($0.timer.id) }, now: now)
    }

    /// The results the search asks to show (GNOME's GetResultMetas), in
    /// the order asked: an id of a Sleep that ended meanwhile, or of none,
    /// has nothing to show and is left out. An id names its Sleep whole, so
    /// each is exact.
    public static func results(for ids: [String], among timers: some Sequence<StoredTimer>, now: Instant) -> [Result] {
        let held = Dictionary(running(timers).map { ($0.timer.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { TimerID($0) }.compactMap { id in held[id].map { result($0, exact: true, now: now) } }
    }

    /// Only a running Sleep is found (its token valid or not: the app
    /// finishes one the desktop cannot); a completed one, being saved, is
    /// not.
    private static func running(_ timers: some Sequence<StoredTimer>) -> [StoredTimer] {
        timers.filter { $0.state == .running }.sorted(by: TimerOrderRule.precedes)
    }

    private static func result(_ stored: StoredTimer, exact: Bool, now: Instant) -> Result {
        Result(
            id: stored.timer.id, name: SleepSearchText.name(baby: stored.timer.babyName.text),
            description: SleepSearchText.description(startedAt: stored.timer.startedAt, now: now),
            exact: exact, canComplete: stored.canComplete(at: now))
    }

    // MARK: Words

    /// The words of a text, folded: lower-case, without accents, split
    /// at everything that is not a letter or a digit ("Anne-Marie" is
    /// "anne" and "marie").
    public static func words(of text: String) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        for scalar in fold(text).unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                word.append(scalar)
            } else if !word.isEmpty {
                words.append(String(word))
                word = String.UnicodeScalarView()
            }
        }
        if !word.isEmpty { words.append(String(word)) }
        return words
    }

    /// Lower-case, accents dropped: a combining accent is left out, and a
    /// Latin letter with a diacritic ("é", "Ö", "ñ") becomes its base letter.
    static func fold(_ text: String) -> String {
        var folded = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where scalar.properties.generalCategory != .nonspacingMark {
            folded.append(contentsOf: baseLetter(of: scalar).properties.lowercaseMapping.unicodeScalars)
        }
        return String(folded)
    }

    /// "LATIN SMALL LETTER E WITH ACUTE" is an "e" (the name says so, in
    /// the standard library's Unicode data: no table of our own).
    private static func baseLetter(of scalar: Unicode.Scalar) -> Unicode.Scalar {
        guard let name = scalar.properties.name else { return scalar }
        for prefix in ["LATIN SMALL LETTER ", "LATIN CAPITAL LETTER "] where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count).unicodeScalars
            if rest.dropFirst().starts(with: " WITH ".unicodeScalars), let letter = rest.first { return letter }
        }
        return scalar
    }
}
