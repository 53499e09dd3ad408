import Glibc
import SleepControl

@main
struct SleepCtlMain {
    static func main() {
        exit(SleepControl().run(Array(CommandLine.arguments.dropFirst())))
    }
}
