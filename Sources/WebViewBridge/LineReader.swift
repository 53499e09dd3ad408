/// Splits newline-delimited messages out of the chunks a descriptor gives:
/// each complete line is handed on (without a trailing CR; blank lines are
/// skipped), and a line longer than `limit` is reported once and then
/// dropped up to its newline, so that it is never held whole in memory.
final class LineReader {
    let limit: Int
    /// A complete message.
    var onLine: ([UInt8]) -> Void = { _ in }
    /// A line that grew past the limit.
    var onOverlong: () -> Void = {}

    private var buffer: [UInt8] = []
    /// Bytes of an overlong line are being skipped up to its newline.
    private var skipping = false

    init(limit: Int) {
        self.limit = limit
    }

    func consume(_ chunk: ArraySlice<UInt8>) {
        var start = chunk.startIndex
        for index in chunk.indices where chunk[index] == UInt8(ascii: "\n") {
            if skipping {
                skipping = false
            } else {
                buffer += chunk[start..<index]
                deliver(buffer)
            }
            buffer = []
            start = index + 1
        }
        if !skipping { buffer += chunk[start..<chunk.endIndex] }
        if buffer.count > limit {
            buffer = []
            skipping = true
            onOverlong()
        }
    }

    /// The end of input: a last line without its newline still counts.
    func end() {
        if !skipping && !buffer.isEmpty { deliver(buffer) }
        buffer = []
    }

    private func deliver(_ line: [UInt8]) {
        var message = line
        if message.last == UInt8(ascii: "\r") { message.removeLast() }
        guard message.contains(where: { ![0x20, 0x09].contains($0) }) else { return }
        onLine(message)
    }
}

/// Used on the bridge's loop thread only.
@available(*, unavailable)
extension LineReader: Sendable {}
