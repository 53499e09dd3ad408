import Foundation

/// `dfl-bench [--quick] [--only SECTIONS] [--rounds N] [--binaries DIR] [--output FILE]`:
/// measures the agent beside its floors and writes the report.
public enum BenchmarkCommand {
    public static let usage = """
        Usage: dfl-bench [--quick] [--only SECTIONS] [--rounds N] [--binaries DIR] [--output FILE]

        Measures dfl-sleep-agent beside floors built in the same run and writes a
        Markdown report (docs/BENCHMARKS.md by default). --quick uses tiny counts,
        for checking that the benchmark still runs; its figures mean nothing.
        --only measures some sections only, comma-separated, of: \(Benchmark.Section.allCases.map(\.rawValue).joined(separator: ", "));
        its report goes to build/bench-partial.md unless --output says otherwise,
        never to docs/. --rounds sets the number of interleaved rounds (3; 2 with
        --quick). --binaries names the directory of the binaries under test
        (default: the directory of dfl-bench itself).
        """

    public static func main(_ arguments: [String]) -> Int32 {
        if arguments.count >= 3, arguments[1] == "notification-server" {
            return Recorder.run(recordPath: arguments[2])
        }
        var quick = false
        var sections: Set<Benchmark.Section>?
        var rounds: Int?
        var binaries = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().path
        var output: String?
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--only":
                let names = (rest.popFirst() ?? "").split(separator: ",").map(String.init)
                let chosen = names.compactMap(Benchmark.Section.init(rawValue:))
                guard !chosen.isEmpty, chosen.count == names.count else { return usageError("--only takes sections: \(Benchmark.Section.allCases.map(\.rawValue).joined(separator: ","))") }
                sections = Set(chosen)
            case "--rounds":
                guard let value = rest.popFirst().flatMap({ Int($0) }), value > 0 else { return usageError("--rounds needs a number") }
                rounds = value
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
        var counts = quick ? Benchmark.Counts.quick : Benchmark.Counts()
        if let rounds { counts.rounds = rounds }
        if let sections { counts.sections = sections }
        let benchmark = Benchmark(environment: environment, counts: counts)
        do {
            try benchmark.run()
        } catch {
            FileHandle.standardError.write(Data("dfl-bench: \(error)\n".utf8))
            return 1
        }
        // Some sections alone never replace the whole report.
        let partial = counts.sections != Set(Benchmark.Section.allCases)
        let path = output ?? repository + (partial ? "/build/bench-partial.md" : "/docs/BENCHMARKS.md")
        try? FileManager.default.createDirectory(atPath: repository + "/build", withIntermediateDirectories: true)
        let report = Report.render(benchmark.rows, notes: benchmark.notes, quick: quick, rounds: benchmark.counts.rounds,
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
