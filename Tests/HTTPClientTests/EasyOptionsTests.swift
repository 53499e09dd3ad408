import CDFLCurl
import Testing
@testable import HTTPClient

/// A libcurl option that is refused is named, from libcurl's own table, and
/// its value never shows.
@Suite struct EasyOptionsTests {
    @Test func aRefusedOptionIsNamedWithoutItsValue() throws {
        let easy = try #require(curl_easy_init())
        defer { curl_easy_cleanup(easy) }
        let options = EasyOptions(easy: easy)
        #expect(throws: Never.self) { try options.set(CURLOPT_PROTOCOLS_STR, string: "https") }
        do {
            try options.set(CURLOPT_PROTOCOLS_STR, string: "CANARY-protocol")
            Issue.record("an unknown protocol was accepted")
        } catch {
            #expect(error.call == "curl_easy_setopt(CURLOPT_PROTOCOLS_STR)")
            #expect(error.code == Int32(CURLE_UNSUPPORTED_PROTOCOL.rawValue))
            #expect(!HTTPError(error).description.contains("CANARY"))
            #expect(HTTPError(error).kind == .libcurl(error))
        }
    }

    @Test func aMultiHandleFailureReadsAsCurlSaysIt() {
        let failure = CurlFailure(call: "curl_multi_add_handle", CURLM_ADDED_ALREADY)
        #expect(failure.description == "libcurl refused curl_multi_add_handle: \(String(cString: curl_multi_strerror(CURLM_ADDED_ALREADY)))")
    }
}
