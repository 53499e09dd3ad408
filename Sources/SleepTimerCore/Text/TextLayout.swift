/// Paragraphs laid out for a terminal: a translation is longer or shorter
/// than the English, so the line breaks of --help are made here, not in the
/// catalogs.
public enum TextLayout {
    /// `text` broken at spaces into lines that end by column `width` when
    /// each starts at column `indent` (a longer word gets a line of its
    /// own): the lines after the first start with `indent` spaces, the
    /// first goes after the caller's own `indent` columns (a command in a
    /// table). Line breaks already in `text` are kept.
    public static func wrap(_ text: String, width: Int, indent: Int = 0) -> String {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                let room = width - indent
                if !line.isEmpty, line.count + 1 + word.count > room {
                    lines.append(line)
                    line = ""
                }
                line += line.isEmpty ? word : " " + word
            }
            lines.append(line)
        }
        let padding = String(repeating: " ", count: indent)
        return lines.enumerated().map { $0.offset == 0 || $0.element.isEmpty ? $0.element : padding + $0.element }
            .joined(separator: "\n")
    }
}
