import SleepTimerCore
import Testing

/// A body read as markup gets the name's markup characters escaped; a body
/// read as plain text is left as written, so no entity shows literally.
@Suite struct NotificationBodyTests {
    let link = #"<a href="https://phish.example/login">Maya</a> & <img src="x">"#

    @Test func aBodyReadAsMarkupHasEveryMarkupCharacterEscaped() {
        let body = NotificationBody.text(link, readAsMarkup: true)
        #expect(body == "&lt;a href=&quot;https://phish.example/login&quot;&gt;Maya&lt;/a&gt; &amp; &lt;img src=&quot;x&quot;&gt;")
        #expect(!body.contains("<") && !body.contains(">"))
    }

    @Test func aPlainTextBodyIsLeftAsWritten() {
        #expect(NotificationBody.text(link, readAsMarkup: false) == link)
        #expect(NotificationBody.text("Tom & Jerry", readAsMarkup: false) == "Tom & Jerry")
    }
}
