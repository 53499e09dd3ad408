import CDFLLinux
import Glibc
import SleepTimerCore

/// A program's language and clock, taken from its environment once, first
/// thing in `main`.
///
/// glibc decides, as it would after `setlocale(LC_ALL, "")`: messages follow
/// LANGUAGE (a list such as "de:fr"), then LC_ALL, LC_MESSAGES and LANG;
/// times follow LC_TIME. LANGUAGE is ignored while the messages' locale is
/// "C" (or "POSIX"); under "C.UTF-8", which glibc 2.41 treats as "C" too,
/// the messages come from an installed UTF-8 locale so that LANGUAGE
/// speaks (LanguageListLocale). A locale that is not installed leaves the
/// program in English.
///
/// The process's own locale stays "C": the words a person reads are looked
/// up through a locale object, while strerror, libdbus and GLib keep writing
/// the journal and D-Bus errors in English, and no C library reads numbers
/// with a decimal comma.
public struct ProgramLocale: @unchecked Sendable {
    /// Where the compiled catalogs are when the program runs from the build
    /// tree (`make` builds them into build/locale).
    public static let directoryVariable = "DFL_LOCALEDIR"
    /// Where the package installs them:
    /// /usr/share/locale/<lang>/LC_MESSAGES/dreamsforlittles.mo.
    public static let installedDirectory = "/usr/share/locale"
    /// Where the Flatpak's manifest installs them: the sandbox's /usr is the
    /// runtime's, the app's own files are under /app.
    public static let flatpakDirectory = "/app/share/locale"

    /// The installed catalogs for where the program runs.
    public static func installedDirectory(in place: RunningPlace) -> String {
        place.isSandboxed ? flatpakDirectory : installedDirectory
    }

    /// Never changed nor freed (see GettextTranslator).
    private let locale: locale_t
    /// The catalogs' directory in use.
    public let directory: String
    /// The environment named a locale glibc does not have: the program
    /// speaks English, with the C locale's clock.
    public let localeMissing: Bool
    /// The installed locale the messages were taken from in place of
    /// C.UTF-8's (LanguageListLocale), if any: a GTK program sets its own
    /// LC_MESSAGES to it, so that GTK's words follow LANGUAGE too.
    public let messagesLocaleName: String?

    /// The "C" locale, and catalogs nowhere: English, as the tests of other
    /// parts expect.
    public init() {
        locale = dfl_c_locale()
        directory = Self.installedDirectory
        localeMissing = false
        messagesLocaleName = nil
    }

    private init(locale: locale_t?, directory: String, messagesLocaleName: String?) {
        self.locale = locale ?? dfl_c_locale()
        self.directory = directory
        localeMissing = locale == nil
        self.messagesLocaleName = messagesLocaleName
    }

    /// Takes the locale the environment names, binds the text domain to its
    /// catalogs (as UTF-8, whatever the locale's charset) and installs the
    /// gettext translator. Call once, before any thread starts.
    public static func start(environment: [String: String]) -> ProgramLocale {
        let chosen = dfl_environment_locale().map { honouringLanguage($0, environment: environment) }
        let program = ProgramLocale(locale: chosen?.locale,
                                    directory: catalogDirectory(environment: environment, place: .current()),
                                    messagesLocaleName: chosen?.messagesName)
        _ = dfl_bindtextdomain(GettextTranslator.domain, program.directory)
        _ = dfl_bind_textdomain_codeset(GettextTranslator.domain, "UTF-8")
        _ = dfl_textdomain(GettextTranslator.domain)
        Localization.install(GettextTranslator(locale: program.locale))
        return program
    }

    /// The environment's locale, its messages taken from an installed UTF-8
    /// locale where glibc would otherwise ignore LANGUAGE (see
    /// LanguageListLocale); as it was when none is installed.
    static func honouringLanguage(_ locale: locale_t, environment: [String: String])
        -> (locale: locale_t, messagesName: String?)
    {
        for name in LanguageListLocale.candidates(environment: environment) {
            if let made = dfl_locale_with_messages(locale, name) { return (made, name) }
        }
        return (locale, nil)
    }

    /// DFL_LOCALEDIR when it is an absolute path, else the catalogs
    /// installed where the program runs.
    public static func catalogDirectory(environment: [String: String], place: RunningPlace = .host) -> String {
        if let directory = environment[directoryVariable], directory.hasPrefix("/") { return directory }
        return installedDirectory(in: place)
    }

    /// How LC_TIME writes a time of day and names the weekdays;
    /// `clockFormat`, the desktop's own 12/24-hour setting, wins where
    /// there is one. Text that is not UTF-8 (a locale in another charset)
    /// is left out, so that English stands in for it.
    public func timeFormat(clockFormat: HourCycle? = nil) -> TimeFormat {
        func item(_ item: Int) -> String {
            guard let text = dfl_langinfo_l(locale, nl_item(item)) else { return "" }
            return String(validatingCString: text) ?? ""
        }
        return TimeFormat.locale(
            timeFormat: item(Int(T_FMT)), twelveHourFormat: item(Int(T_FMT_AMPM)), am: item(Int(AM_STR)),
            pm: item(Int(PM_STR)), weekdays: (0..<7).map { item(Int(DAY_1) + $0) }, clockFormat: clockFormat)
    }
}
