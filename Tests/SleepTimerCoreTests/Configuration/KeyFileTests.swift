import CDFLGLib
import Testing
import SleepTimerCore

@Suite struct KeyFileTests {
    @Test func valuesTakeGKeyFileEscapes() {
        #expect(KeyFile.unescape(#"a\sb\tc\nd\\e"#) == "a b\tc\nd\\e")
        #expect(KeyFile.unescape(#"bad\q"#) == nil)
        #expect(KeyFile.unescape(#"dangling\"#) == nil)
    }

    @Test func listsSplitOnUnescapedSemicolons() {
        #expect(KeyFile.splitList("a;b;") == ["a", "b"])
        #expect(KeyFile.splitList(#"a\;b;c"#) == ["a;b", "c"])
        #expect(KeyFile.splitList(" a ; b ") == ["a", "b"])
        #expect(KeyFile.splitList("") == [])
        #expect(KeyFile.splitList(#"a\"#) == nil)
    }

    /// The files the agent accepts mean the same to GLib's own parser, so a
    /// configuration written for one reads the same in the other.
    @Test(arguments: [
        "[platform]\nallowed-origins=https://a.example;https://b.example;\n",
        "# comment\n  [platform]  \n  allowed-origins   =   https://a.example  \n\n[notifications]\nlive-elapsed=on\r\n",
        "[app]\ndeep-link-base=dreams\\s://\n",
        "[platform]\nallowed-origins=x\\;y;z\n",
    ])
    func agreesWithGKeyFile(_ text: String) throws {
        let ours = try KeyFile(parsing: text)
        let glib = g_key_file_new()
        defer { g_key_file_free(glib) }
        var error: UnsafeMutablePointer<GError>?
        let loaded = g_key_file_load_from_data(glib, text, gsize(text.utf8.count), DFL_G_KEY_FILE_NONE, &error)
        #expect(loaded != 0)
        for group in ours.groups {
            for entry in group.entries {
                let value = g_key_file_get_value(glib, group.name, entry.key, nil)
                defer { g_free(value) }
                #expect(value.map { String(cString: $0).trimmingCharactersForTest() } == entry.rawValue.trimmingCharactersForTest())
                var count: gsize = 0
                if let list = g_key_file_get_string_list(glib, group.name, entry.key, &count, nil) {
                    defer { g_strfreev(list) }
                    let glibItems = (0..<Int(count)).map { String(cString: list[$0]!) }
                    #expect(KeyFile.splitList(entry.rawValue) == glibItems.filter { !$0.isEmpty }.map { $0.trimmingCharactersForTest() })
                }
            }
        }
    }
}

extension String {
    /// GKeyFile keeps trailing blanks in values; the agent trims them, so
    /// the comparison does too.
    fileprivate func trimmingCharactersForTest() -> String {
        var text = Substring(self)
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
