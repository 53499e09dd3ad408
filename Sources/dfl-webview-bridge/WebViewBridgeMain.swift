import FoundationEssentials
import Glibc
import WebViewBridge

@main
struct WebViewBridgeMain {
    static func main() {
        exit(BridgeProcess(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment).run())
    }
}
