import Glibc
import SleepAgentDaemon
import SleepTimerCore

@main
struct SleepAgentMain {
    static func main() {
        exit(AgentApp(arguments: CommandLine.arguments, environment: ProcessEnvironment.current).run())
    }
}
