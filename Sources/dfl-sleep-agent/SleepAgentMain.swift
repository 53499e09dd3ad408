import FoundationEssentials
import Glibc
import SleepAgentDaemon

@main
struct SleepAgentMain {
    static func main() {
        exit(AgentApp(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment).run())
    }
}
