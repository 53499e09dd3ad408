import CDFLWebKitGTK
import DFLGettext
import DesktopApp
import Glibc
import SleepTimerCore

/// dreamsforlittles: the Dreams for Littles desktop app.
@main
struct DreamsForLittlesMain {
    static func main() {
        // GDK has taken the launch's activation token out of `environ`
        // already: the environment as the process was given it.
        let environment = ProcessEnvironment.atStart
        // First, before GTK starts a thread: the words of the window, its
        // pages and --help in the reader's language (LANGUAGE, LC_MESSAGES;
        // DFL_LOCALEDIR for the catalogs of the build tree).
        let locale = ProgramLocale.start(environment: environment)
        // GTK's own words (the window's buttons, its dialogs) in the same
        // language: GTK would take the process's locale from the
        // environment alone, and so miss LANGUAGE under C.UTF-8 on glibc 2.41.
        gtk_disable_setlocale()
        setlocale(LC_ALL, "")
        if let name = locale.messagesLocaleName { setlocale(LC_MESSAGES, name) }
        let executable = readLink("/proc/self/exe") ?? CommandLine.arguments[0]
        let application = DesktopApplication(environment: environment, executable: executable, localeMissing: locale.localeMissing)
        exit(application.run(arguments: CommandLine.arguments))
    }

    /// Where a symbolic link points: the app's own executable, beside which
    /// the bridge is.
    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
