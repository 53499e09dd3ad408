import CDFLLinux
import SleepTimerCore

/// The core's translator backed by glibc's gettext: the catalogs of the text
/// domain "dreamsforlittles" in the language of a locale object (LANGUAGE
/// first, then LC_ALL, LC_MESSAGES and LANG, as glibc orders them), as
/// UTF-8. The locale is put in force on the calling thread only for the
/// lookup, so the process itself stays in "C".
public struct GettextTranslator: Translator, @unchecked Sendable {
    public static let domain = "dreamsforlittles"

    /// Never changed nor freed once made; glibc's locale objects may be used
    /// by several threads at once, which is why this may be Sendable.
    let locale: locale_t

    init(locale: locale_t) { self.locale = locale }

    /// A translator in the "C" locale: English, whatever the environment.
    public init() { locale = dfl_c_locale() }

    // Without a translation gettext returns the pointer it was given: the
    // message's own bytes, alive only inside withCString, so the pointer is
    // compared there rather than read afterwards.

    public func translate(_ message: String) -> String {
        // gettext("") is the catalog's header, not a translation.
        guard !message.isEmpty else { return message }
        return message.withCString { pointer in
            guard let translated = dfl_dgettext_l(locale, Self.domain, pointer), translated != pointer else {
                return message
            }
            return String(cString: translated)
        }
    }

    public func translate(_ singular: String, plural: String, count: Int) -> String {
        singular.withCString { one in
            plural.withCString { many in
                guard let translated = dfl_dngettext_l(locale, Self.domain, one, many, UInt(max(0, count))) else {
                    return count == 1 ? singular : plural
                }
                if translated == one { return singular }
                if translated == many { return plural }
                return String(cString: translated)
            }
        }
    }
}
