import CDFLWebKitGTK
import DFLGettext
import DesktopApp
import Glibc

/// dreamsforlittles: the Dreams for Littles desktop app.
@main
struct DreamsForLittlesMain {
    static func main() {
        let environment = startEnvironment()
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

    /// The environment the process was started with. GDK takes the launch's
    /// activation token (DESKTOP_STARTUP_ID, XDG_ACTIVATION_TOKEN) out of
    /// `environ` in a constructor, before main; /proc/self/environ still
    /// holds the block the process was given.
    static func startEnvironment() -> [String: String] {
        var bytes: [UInt8] = []
        let descriptor = open("/proc/self/environ", O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(descriptor, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                bytes += chunk[0..<count]
            }
            close(descriptor)
        }
        var entries = bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        if entries.isEmpty {
            var entry = environ
            while let pointer = entry.pointee {
                entries.append(String(cString: pointer))
                entry += 1
            }
        }
        var environment: [String: String] = [:]
        for text in entries {
            guard let equals = text.firstIndex(of: "=") else { continue }
            environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return environment
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
