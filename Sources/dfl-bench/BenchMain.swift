import Benchmarking
import Foundation

@main
struct BenchMain {
    static func main() {
        exit(BenchmarkCommand.main(CommandLine.arguments))
    }
}
