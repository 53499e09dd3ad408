import SleepTimerCore
import Testing

/// A body read as markup gets the name's markup characters escaped; a body
/// read as plain text is left as written, so no entity shows literally; a
/// body whose reader is unknown (the notification portal) has the
/// characters that start markup replaced by look-alikes.
@Suite struct NotificationBodyTests {
    let link = #"<a href="https://phish.example/login">Maya</a> & <img src="x">"#

    @Test func aBodyReadAsMarkupHasEveryMarkupCharacterEscaped() {
        let body = NotificationBody.text(link, readAs: .markup)
        #expect(body == "&lt;a href=&quot;https://phish.example/login&quot;&gt;Maya&lt;/a&gt; &amp; &lt;img src=&quot;x&quot;&gt;")
        #expect(!body.contains("<") && !body.contains(">"))
    }

    @Test func aPlainTextBodyIsLeftAsWritten() {
        #expect(NotificationBody.text(link, readAs: .plainText) == link)
        #expect(NotificationBody.text("Tom & Jerry", readAs: .plainText) == "Tom & Jerry")
    }

    @Test func aBodyReadEitherWayHoldsNothingThatStartsMarkup() {
        let body = NotificationBody.text(link, readAs: .eitherWay)
        #expect(body == "\u{FF1C}a href=\"https://phish.example/login\"\u{FF1E}Maya\u{FF1C}/a\u{FF1E} \u{FF06} \u{FF1C}img src=\"x\"\u{FF1E}")
        #expect(!body.contains("<") && !body.contains(">") && !body.contains("&"))
    }

    @Test func anEntityReadEitherWayCannotBecomeACharacter() {
        // "&#x202E;" would turn the rest of the line around where it is read as markup.
        #expect(NotificationBody.text("Maya&#x202E;", readAs: .eitherWay) == "Maya\u{FF06}#x202E;")
    }

    @Test func aBodyReadEitherWayWithoutMarkupCharactersIsLeftAsWritten() {
        #expect(NotificationBody.text("Zoë 👶 is asleep · 1 h", readAs: .eitherWay) == "Zoë 👶 is asleep · 1 h")
    }
}
