import Foundation

/// docs/BENCHMARKS.md: the rows of one run, each figure beside its floor.
enum Report {
    static func machineLine() -> String {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = ProcessInfo.processInfo.physicalMemory / (1 << 30)
        var system = utsname()
        uname(&system)
        let kernel = withUnsafeBytes(of: &system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let osRelease = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let os = osRelease.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } ?? "Linux"
        return "\(model), \(cores) cores, \(memory) GiB; \(os), kernel \(kernel)"
    }

    /// The heading of the hand-written reading of the figures (why a goal
    /// is not met), which a new run keeps: the figures change, the reasons
    /// are written by a person and reread against the new table.
    static let analysisHeading = "## Reading the figures"

    /// The hand-written section of an earlier report, from its heading to
    /// the end, or nil.
    static func analysis(of earlier: String) -> String? {
        guard let start = earlier.range(of: "\n" + analysisHeading + "\n") else { return nil }
        return String(earlier[earlier.index(after: start.lowerBound)...])
    }

    static func render(_ rows: [Row], notes: [String], quick: Bool, rounds: Int, seconds: Double,
                       keeping earlier: String? = nil) -> String
    {
        let date = ISO8601DateFormatter().string(from: Date())
        var text = """
            # Benchmarks

            One run of `make bench` (\(quick ? "quick mode, tiny counts: not a measurement" : "full counts")), \(date), \(Int(seconds)) s.
            Machine: \(machineLine()).

            Every figure is measured in \(rounds) interleaved rounds, on a private session bus, against the
            release binaries: in each round the floor is measured, then the agent, then the next
            floor. Floors are small C programs built by the benchmark itself from
            `Sources/Benchmarking/floors/`, linking the same libraries. A round's value is the median
            of its samples; the ratio is the median of the per-round ratios (figure ÷ floor of the
            same round), with their spread (lowest–highest) in brackets, and a goal is judged on it.

            | Figure | Agent, per round | Floor, per round | Ratio (spread) | Goal | Met |
            |---|---|---|---|---|---|

            """
        for row in rows { text += line(row) }
        if !notes.isEmpty {
            text += "\n" + notes.map { "- " + $0 }.joined(separator: "\n") + "\n"
        }
        if let kept = earlier.flatMap(analysis(of:)) {
            text += "\n" + kept
        }
        return text
    }

    /// "185 · 190 · 201 µs"
    static func values(_ values: [Double], unit: String) -> String {
        values.isEmpty ? "—" : values.map(format).joined(separator: " · ") + " " + unit
    }

    private static func line(_ row: Row) -> String {
        let floor = row.floors.isEmpty ? row.floorName : "\(values(row.floors, unit: row.unit)) (\(row.floorName))"
        let ratio = row.ratio.map { ratios in
            ratios.count > 1
                ? String(format: "%.2f (%.2f–%.2f)", ratios.median, ratios.minimum, ratios.maximum)
                : String(format: "%.2f", ratios.median)
        } ?? "—"
        let met = row.met.map { $0 ? "yes" : "**no**" } ?? "—"
        return "| \(row.figure) | \(values(row.rounds, unit: row.unit)) | \(floor) | \(ratio) | \(row.goalText ?? row.goal.text) | \(met) |\n"
    }
}
