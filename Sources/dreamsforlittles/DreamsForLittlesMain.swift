import DesktopApp
import Glibc

/// dreamsforlittles: the Dreams for Littles desktop app.
@main
struct DreamsForLittlesMain {
    static func main() {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        let executable = (try? selfExecutable()) ?? CommandLine.arguments[0]
        exit(DesktopApplication(environment: environment, executable: executable).run(arguments: CommandLine.arguments))
    }

    /// The app's own executable (/proc/self/exe), beside which the bridge is.
    static func selfExecutable() throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { throw CocoaLikeError() }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    struct CocoaLikeError: Error {}
}
