import Testing
import SleepTimerCore

@Suite struct APIOriginTests {
    @Test(arguments: [
        ("https://api.dreamsforlittles.example", "https://api.dreamsforlittles.example"),
        ("HTTPS://API.Example.COM", "https://api.example.com"),
        ("https://api.example.com:443", "https://api.example.com"),
        ("https://api.example.com:8443", "https://api.example.com:8443"),
        ("https://10.1.2.3", "https://10.1.2.3"),
        ("https://[2001:DB8::1]:8443", "https://[2001:db8::1]:8443"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://127.255.0.9", "http://127.255.0.9"),
        ("http://[::1]:9000", "http://[::1]:9000"),
        ("http://[0:0:0:0:0:0:0:1]", "http://[::1]"),
        ("http://127.0.0.1:80", "http://127.0.0.1"),
    ])
    func acceptsAndNormalisesOrigins(_ input: String, _ expected: String) throws {
        #expect(try APIOrigin(parsing: input).description == expected)
    }

    @Test(arguments: [
        ("http://api.example.com", APIOrigin.Problem.plainHTTPNotLoopback),
        ("http://localhost:8080", .plainHTTPNotLoopback),
        ("http://10.0.0.1", .plainHTTPNotLoopback),
        ("http://[::2]", .plainHTTPNotLoopback),
        ("http://[::ffff:127.0.0.1]", .malformed),
        ("ftp://api.example.com", .schemeNotAllowed),
        ("javascript://api.example.com", .schemeNotAllowed),
        ("https://user:pass@api.example.com", .hasUserInfo),
        ("https://user@api.example.com", .hasUserInfo),
        ("https://api.example.com/", .hasPath),
        ("https://api.example.com/v1", .hasPath),
        ("https://api.example.com?x=1", .hasQuery),
        ("https://api.example.com#top", .hasFragment),
        ("https://", .malformed),
        ("api.example.com", .malformed),
        ("https://api..example.com", .malformed),
        ("https://-api.example.com", .malformed),
        ("https://api.example.com:0", .malformed),
        ("https://api.example.com:65536", .malformed),
        ("https://api.example.com:+443", .malformed),
        ("https://api.example.com:", .malformed),
        ("https://bücher.example", .malformed),
        ("https://127.0.0.01", .malformed),
        ("https://256.1.1.1", .malformed),
        ("https://api.example.com.", .malformed),
        ("https://[::1", .malformed),
        ("https://[::1]x", .malformed),
        ("https://1.2.3", .malformed),
        ("https://api example.com", .malformed),
    ])
    func refusesWithTheProblemNamed(_ input: String, _ problem: APIOrigin.Problem) {
        #expect(throws: problem) { try APIOrigin(parsing: input) }
    }

    /// The longest host a DNS name may be: three labels of 63 letters and
    /// one of 61, with their dots 253 bytes.
    static let longestHost = [String](repeating: String(repeating: "a", count: 63), count: 3).joined(separator: ".")
        + "." + String(repeating: "b", count: 61)

    @Test(arguments: [
        ("https://z09.example", "https://z09.example"),
        ("https://api.example.com:65535", "https://api.example.com:65535"),
        ("https://[1:2:3::4:5:6:7]", "https://[1:2:3:0:4:5:6:7]"),
        ("https://\(longestHost)", "https://\(longestHost)"),
        // RFC 5952: the first of two equal runs of zeros is compressed, a
        // run of two is, and a run may end the address.
        ("https://[1:0:0:2:0:0:3:4]", "https://[1::2:0:0:3:4]"),
        ("https://[1:0:0:2:3:4:5:6]", "https://[1::2:3:4:5:6]"),
        ("https://[1::]", "https://[1::]"),
    ])
    func acceptsOriginsAtTheEdgeOfEachRule(_ input: String, _ expected: String) throws {
        #expect(try APIOrigin(parsing: input).description == expected)
    }

    @Test(arguments: [
        ("z+-.09://api.example.com", APIOrigin.Problem.schemeNotAllowed),
        ("a_b://api.example.com", .malformed),
        ("://api.example.com", .malformed),
        ("https://api.0", .malformed),
        ("https://api.9", .malformed),
        ("https://api-.example.com", .malformed),
        ("https://api.example.com:000443", .malformed),
        ("https://[::1]x443", .malformed),
        ("https://\(longestHost)b", .malformed),
        ("https://[1:::2]", .malformed),
        ("https://[00001::1]", .malformed),
        ("https://[1:2:3:4::5:6:7:8]", .malformed),
        ("https://[1:2:3]", .malformed),
    ])
    func refusesOriginsJustPastEachRule(_ input: String, _ problem: APIOrigin.Problem) {
        #expect(throws: problem) { try APIOrigin(parsing: input) }
    }

    @Test func loopbackIsOnlyTheLoopbackRanges() throws {
        #expect(try APIOrigin(parsing: "https://127.1.2.3").isLoopback)
        #expect(try APIOrigin(parsing: "https://[::1]").isLoopback)
        #expect(try !APIOrigin(parsing: "https://128.0.0.1").isLoopback)
        #expect(try !APIOrigin(parsing: "https://localhost").isLoopback)
    }

    @Test func theAllowListComparesNormalisedOrigins() throws {
        let list = AllowedOrigins([try APIOrigin(parsing: "https://api.example.com")])
        #expect(list.contains(try APIOrigin(parsing: "HTTPS://api.EXAMPLE.com:443")))
        #expect(!list.contains(try APIOrigin(parsing: "https://api.example.com:444")))
        #expect(!list.contains(try APIOrigin(parsing: "https://evil.example.com")))
    }
}
