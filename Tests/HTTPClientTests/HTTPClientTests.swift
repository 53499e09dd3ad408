import EventLoop
import SleepTimerCore
import Testing
@testable import HTTPClient

/// The refusals that happen before any connection. Real exchanges (TLS,
/// pins, timeouts, every status of the contract) are tested against the
/// reference platform in Tests/Integration/test_completion.py.
@Suite(.serialized) struct HTTPClientTests {
    private func refusal(origin: String, path: String = "/native/sleep-timers/x/complete",
                         headers: [(String, String)] = []) throws -> HTTPError? {
        let loop = MainLoop()
        let client = HTTPClient(loop: loop, settings: HTTPSettings())
        var outcome: Result<HTTPResponse, HTTPError>?
        client.post(origin: try APIOrigin(parsing: origin), path: path, body: Array("{}".utf8), headers: headers) {
            outcome = $0
        }
        // Refusals answer before the call returns: no loop turn, no connection.
        guard case .failure(let error)? = outcome else { return nil }
        return error
    }

    @Test func plainHTTPExistsOnlyForLoopback() throws {
        // An origin of plain http for a public host cannot even be built, so
        // the client is never asked to use one.
        #expect(throws: APIOrigin.Problem.plainHTTPNotLoopback) { try APIOrigin(parsing: "http://api.example.com") }
        #expect(try refusal(origin: "http://127.0.0.1:9") == nil)
    }

    @Test func headerValuesWithCRorLFAreRefused() throws {
        for value in ["a\rb", "a\nb", "a\r\nSet-Cookie: x"] {
            #expect(try refusal(origin: "https://127.0.0.1:9", headers: [("X-Test", value)])?.kind == .refused)
        }
        #expect(try refusal(origin: "https://127.0.0.1:9", headers: [("Bad Name", "v")])?.kind == .refused)
    }

    @Test func malformedPathsAreRefused() throws {
        for path in ["no-slash", "/with space", "/frag#ment", "/tab\t"] {
            #expect(try refusal(origin: "https://127.0.0.1:9", path: path)?.kind == .refused)
        }
    }

    @Test func aValidRequestIsNotRefusedUpFront() throws {
        #expect(try refusal(origin: "https://127.0.0.1:9") == nil)
    }

    @Test func thisLibcurlResolvesNamesWithoutBlocking() {
        #expect(HTTPClient.resolvesAsynchronously)
    }
}
