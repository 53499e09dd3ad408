import Glibc
import SleepTimerCore
import WebViewBridge

@main
struct WebViewBridgeMain {
    static func main() {
        exit(BridgeProcess(arguments: CommandLine.arguments, environment: ProcessEnvironment.current).run())
    }
}
