import Foundation

/// `dfl-bench [--quick] [--binaries DIR] [--output FILE]`: measures the agent
/// beside its floors and writes the report.
public enum BenchmarkCommand {
    public static let usage = """
        Usage: dfl-bench [--quick] [--only app] [--binaries DIR] [--output FILE]

        Measures dfl-sleep-agent beside floors built in the same run and writes a
        Markdown report (docs/BENCHMARKS.md by default). --quick uses tiny counts,
        for checking that the benchmark still runs; its figures mean nothing.
        --binaries names the directory of the binaries under test (default: the
        directory of dfl-bench itself). --only app measures only the desktop app
        beside MiniBrowser.
        """

    public static func main(_ arguments: [String]) -> Int32 {
        if arguments.count >= 3, arguments[1] == "notification-server" {
            return Recorder.run(recordPath: arguments[2])
        }
        var quick = false
        var appOnly = false
        var binaries = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().path
        var output: String?
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--only":
                guard rest.popFirst() == "app" else { return usageError("--only takes app") }
                appOnly = true
            case "--binaries":
                guard let value = rest.popFirst() else { return usageError("--binaries needs a directory") }
                binaries = value
            case "--output":
                guard let value = rest.popFirst() else { return usageError("--output needs a file") }
                output = value
            case "--help", "-h":
                print(usage)
                return 0
            default:
                return usageError("unknown argument \(argument)")
            }
        }
        let repository = FileManager.default.currentDirectoryPath
        guard FileManager.default.fileExists(atPath: repository + "/scripts/reference_platform.py") else {
            return usageError("run dfl-bench from the repository's top directory")
        }
        let started = Date()
        let environment: BenchEnvironment
        do {
            environment = try BenchEnvironment(repository: repository, binaries: binaries)
        } catch {
            FileHandle.standardError.write(Data("dfl-bench: \(error)\n".utf8))
            return 1
        }
        defer { environment.close() }
        let benchmark = Benchmark(environment: environment, counts: quick ? .quick : Benchmark.Counts())
        do {
            try appOnly ? benchmark.runAppOnly() : benchmark.run()
        } catch {
            FileHandle.standardError.write(Data("dfl-bench: \(error)\n".utf8))
            return 1
        }
        // The app's figures alone never replace the whole report.
        let path = output ?? repository + (appOnly ? "/build/bench-app.md" : "/docs/BENCHMARKS.md")
        try? FileManager.default.createDirectory(atPath: repository + "/build", withIntermediateDirectories: true)
        let report = Report.render(benchmark.rows, notes: benchmark.notes, quick: quick,
                                   seconds: Date().timeIntervalSince(started),
                                   keeping: try? String(contentsOfFile: path, encoding: .utf8))
        do {
            try report.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            FileHandle.standardError.write(Data("dfl-bench: cannot write \(path): \(error)\n".utf8))
            return 1
        }
        print(report)
        return 0
    }

    private static func usageError(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("dfl-bench: \(message)\n\(usage)\n".utf8))
        return 64
    }
}
