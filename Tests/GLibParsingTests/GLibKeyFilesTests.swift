import Testing
import SleepTimerCore
import GLibParsing

/// Key files as GKeyFile reads them, each line numbered: the cases the
/// core's own key file parser was tested with.
@Suite struct GLibKeyFilesTests {
    private func entry(_ value: String) throws -> KeyFileContents.Entry {
        let file = try GLibKeyFiles().parse("[g]\nk=\(value)\n")
        return try #require(file.groups.first?.entries.first)
    }

    @Test func valuesTakeGKeyFileEscapes() throws {
        #expect(try entry(#"a\sb\tc\nd\\e"#).value == "a b\tc\nd\\e")
        #expect(try entry(#"bad\q"#).value == nil)
        #expect(try entry(#"dangling\"#).value == nil)
    }

    /// GKeyFile's items as they are; Configuration trims them and drops the
    /// empty ones (ConfigurationTests.listItemsAreTrimmedAndEmptyOnesDropped).
    @Test func listsSplitOnUnescapedSemicolons() throws {
        #expect(try entry("a;b;").list == ["a", "b"])
        #expect(try entry(#"a\;b;c"#).list == ["a;b", "c"])
        #expect(try entry(" a ; b ").list == ["a ", " b "])
        #expect(try entry("").list == [])
        #expect(try entry(#"a\"#).list == nil)
    }

    /// The files the agent accepts, with every group, key and line.
    @Test func groupsAndEntriesKeepTheirLines() throws {
        let file = try GLibKeyFiles().parse(
            "# comment\n  [platform]  \n  allowed-origins   =   https://a.example  \n\n[notifications]\nlive-elapsed=on\r\n")
        #expect(file == KeyFileContents(groups: [
            .init(name: "platform", line: 2, entries: [
                .init(key: "allowed-origins", line: 3, value: "https://a.example  ", list: ["https://a.example  "]),
            ]),
            .init(name: "notifications", line: 5, entries: [.init(key: "live-elapsed", line: 6, value: "on", list: ["on"])]),
        ]))
        let escaped = try GLibKeyFiles().parse("[app]\ndeep-link-base=dreams\\s://\n")
        #expect(escaped.groups.first?.entries.first?.value == "dreams ://")
        let semicolon = try GLibKeyFiles().parse("[platform]\nallowed-origins=x\\;y;z\n")
        #expect(semicolon.groups.first?.entries.first?.list == ["x;y", "z"])
    }

    /// GKeyFile would merge these; a repeat is refused at its line.
    @Test func repeatedGroupsAndKeysAreRefused() throws {
        #expect(throws: KeyFileSyntaxError(line: 3, message: "key k appears twice in group [a]")) {
            try GLibKeyFiles().parse("[a]\nk=1\nk=2\n")
        }
        #expect(throws: KeyFileSyntaxError(line: 3, message: "group [a] appears twice")) {
            try GLibKeyFiles().parse("[a]\nk=1\n[a]\nj=2\n")
        }
        let file = try GLibKeyFiles().parse("[a]\nk=1\n[b]\nk=2\n")
        #expect(file.groups.map(\.line) == [1, 3])
        #expect(file.groups.map { $0.entries.map(\.value) } == [["1"], ["2"]])
    }

    @Test(arguments: [
        ("allowed-origins=https://a.example\n", 1),
        ("[platform\n", 1),
        ("[platform] x\n", 1),
        ("[]\n", 1),
        ("[platform]\njust some words\n", 2),
        ("[platform]\n=value\n", 2),
        ("# a comment\n\n[platform]\nx=1\n[bad\n", 5),
    ])
    func syntaxErrorsNameTheirLine(_ text: String, _ line: Int) throws {
        do {
            _ = try GLibKeyFiles().parse(text)
            Issue.record("\(text) was read")
        } catch {
            #expect(error.line == line)
            #expect(!error.message.isEmpty)
        }
    }

    @Test func syntaxErrorsAreToldInTheProgramsWords() {
        #expect(throws: KeyFileSyntaxError(line: 1, message: "a key=value line comes before any [group]")) {
            try GLibKeyFiles().parse("allowed-origins=https://a.example\n")
        }
        #expect(throws: KeyFileSyntaxError(
            line: 2,
            message: "a line must be a [group] (a name without [, ] or control characters), a key=value pair or a # comment")
        ) {
            try GLibKeyFiles().parse("[platform]\njust some words\n")
        }
    }

    @Test func anEmptyTextHasNoGroups() throws {
        #expect(try GLibKeyFiles().parse("") == KeyFileContents())
        #expect(try GLibKeyFiles().parse("# only a comment\n\n") == KeyFileContents())
    }
}
