/// Which locale's messages category lets LANGUAGE speak while the
/// environment's locale is C.UTF-8.
///
/// glibc's gettext ignores LANGUAGE while the messages' locale is "C". Up
/// to 2.36 (Debian 12) "C.UTF-8" is not "C" there; from 2.41 (Debian 13)
/// it is, so `LANGUAGE=de LANG=C.UTF-8` leaves English. The programs then
/// take LC_MESSAGES, and only it, from an installed UTF-8 locale: gettext
/// follows LANGUAGE again, the whole list, while the clock and everything
/// else stay those of C.UTF-8. Plain "C" and "POSIX" still mean English, as
/// glibc intends.
public enum LanguageListLocale {
    /// The locale names to try in turn, first installed wins; none when
    /// LANGUAGE needs no help.
    public static func candidates(environment: [String: String]) -> [String] {
        guard isCUTF8(messagesLocaleName(environment: environment)) else { return [] }
        let languages = (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init)
            .filter { !$0.isEmpty && $0 != "C" && $0 != "POSIX" }
        guard !languages.isEmpty else { return [] }
        var names: [String] = []
        for language in languages {
            for name in utf8Locales(for: language) where !names.contains(name) { names.append(name) }
        }
        // Any UTF-8 locale other than C lets gettext read LANGUAGE; this one
        // is the most often installed.
        if !names.contains("en_US.UTF-8") { names.append("en_US.UTF-8") }
        return names
    }

    /// The locale glibc takes LC_MESSAGES from: the first of LC_ALL,
    /// LC_MESSAGES and LANG that is set and not empty, else "C".
    static func messagesLocaleName(environment: [String: String]) -> String {
        for variable in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[variable], !value.isEmpty { return value }
        }
        return "C"
    }

    /// "C.UTF-8" and glibc's other spellings of it ("C.utf8").
    static func isCUTF8(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered == "c.utf-8" || lowered == "c.utf8"
    }

    /// A LANGUAGE entry ("de", "pt_BR", "de_AT.ISO-8859-1@euro") as UTF-8
    /// locale names: its own territory, or the language's home territory.
    static func utf8Locales(for entry: String) -> [String] {
        let bare = String(entry.prefix { $0 != "." && $0 != "@" })
        guard !bare.isEmpty, bare.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_") }) else { return [] }
        if bare.contains("_") { return [bare + ".UTF-8"] }
        let territory = homeTerritories[bare] ?? bare.uppercased()
        return ["\(bare)_\(territory).UTF-8"]
    }

    /// Languages whose code is not their main territory's.
    static let homeTerritories = [
        "en": "US", "da": "DK", "sv": "SE", "nb": "NO", "nn": "NO", "cs": "CZ", "el": "GR", "ja": "JP", "ko": "KR",
        "zh": "CN", "uk": "UA", "ca": "ES", "sl": "SI", "et": "EE", "he": "IL", "vi": "VN", "hi": "IN", "fa": "IR",
        "ga": "IE", "sq": "AL", "sr": "RS", "be": "BY", "ka": "GE", "hy": "AM", "kk": "KZ", "ar": "EG",
    ]
}
