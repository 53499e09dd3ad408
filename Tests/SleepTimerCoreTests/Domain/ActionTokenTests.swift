import DFLTestSupport
import Testing
import GLibParsing
import SleepTimerCore

@Suite struct ActionTokenTests {
    let token = ActionToken(unvalidated: Fixtures.canary)

    @Test func noTextualFormRevealsTheValue() {
        var dumped = ""
        dump(token, to: &dumped)
        var dumpedWrapper = ""
        dump(NativeActionToken(token: token, expiresAt: Fixtures.now), to: &dumpedWrapper)
        var dumpedTimer = ""
        let timer = try? Fixtures.mirrorRule.mirroredTimer(for: Fixtures.request(), now: Fixtures.now)
        dump(timer, to: &dumpedTimer)
        #expect(timer != nil)
        let forms = [
            token.description, token.debugDescription, "\(token)", String(describing: token),
            String(reflecting: token), dumped, dumpedWrapper, dumpedTimer,
            String(describing: Mirror(reflecting: token).children.map { $0.value }),
            "\(NativeActionToken(token: token, expiresAt: Fixtures.now))",
            String(reflecting: NativeActionToken(token: token, expiresAt: Fixtures.now)),
            String(describing: timer), String(reflecting: timer),
        ]
        for form in forms {
            #expect(!form.contains("CANARY"), "a textual form revealed the token: \(form.count) characters")
        }
        #expect(Mirror(reflecting: token).children.isEmpty)
    }

    @Test func theValueIsReachableOnlyOnPurpose() {
        #expect(token.withRevealedValue { $0 } == Fixtures.canary)
    }

    @Test func equalityComparesTheValue() {
        #expect(token == ActionToken(unvalidated: Fixtures.canary))
        #expect(token != ActionToken(unvalidated: Fixtures.canary + "x"))
        #expect(token != ActionToken(unvalidated: "dflnat_CANARY_q8Zr2mXv0Lw9sT4kP1nB7cY3uH6eJ5dB"))
    }

    @Test func anOpaqueTokenHasTheRightShape() {
        #expect(token.shapeProblem(base64: GLibBase64()) == nil)
        #expect(ActionToken(unvalidated: "abc.def.ghi-jkl_mno").shapeProblem(base64: GLibBase64()) == nil)
    }

    @Test func aJWTIsRecognisedAsABearerToken() {
        #expect(ActionToken(unvalidated: Fixtures.jwt).shapeProblem(base64: GLibBase64()) == .looksLikeBearerToken)
        // Unpadded and padded header segments both count.
        let padded = "eyJhbGciOiJub25lIn0=.e30.sig"
        #expect(ActionToken(unvalidated: padded + "nature").shapeProblem(base64: GLibBase64()) == .looksLikeBearerToken)
    }

    @Test func aJWTWithoutASignatureIsABearerTokenAndOneWithoutAPayloadIsNot() {
        // An unsecured JWT ("alg": "none") ends with an empty signature.
        #expect(ActionToken(unvalidated: "eyJhbGciOiJub25lIn0.e30.").shapeProblem(base64: GLibBase64()) == .looksLikeBearerToken)
        #expect(ActionToken(unvalidated: "eyJhbGciOiJub25lIn0..signature").shapeProblem(base64: GLibBase64()) == nil)
    }

    @Test func threeSegmentsWhoseHeaderIsNoBase64AreNotABearerToken() {
        #expect(ActionToken(unvalidated: "a.e30.signature-x").shapeProblem(base64: GLibBase64()) == nil)
    }

    @Test func threeSegmentsWhoseHeaderIsNotJSONAreNotABearerToken() {
        // "aGVsbG8" is base64url for "hello": three segments, but no JSON header.
        #expect(ActionToken(unvalidated: "aGVsbG8.d29ybGQ.c2lnbmF0dXJl").shapeProblem(base64: GLibBase64()) == nil)
        // A JSON array is not a JWT header.
        #expect(ActionToken(unvalidated: "WzEsMl0.d29ybGQ.c2lnbmF0dXJl").shapeProblem(base64: GLibBase64()) == nil)
    }

    @Test func lengthAndAlphabetAreBounded() {
        #expect(ActionToken(unvalidated: "").shapeProblem(base64: GLibBase64()) == .empty)
        #expect(ActionToken(unvalidated: "short").shapeProblem(base64: GLibBase64()) == .wrongLength)
        #expect(ActionToken(unvalidated: String(repeating: "a", count: 1025)).shapeProblem(base64: GLibBase64()) == .wrongLength)
        #expect(ActionToken(unvalidated: String(repeating: "a", count: 1024)).shapeProblem(base64: GLibBase64()) == nil)
        #expect(ActionToken(unvalidated: "dflnat_with space_0123456789").shapeProblem(base64: GLibBase64()) == .forbiddenCharacters)
        #expect(ActionToken(unvalidated: "dflnat_crlf\r\nInjected: 1").shapeProblem(base64: GLibBase64()) == .forbiddenCharacters)
        #expect(ActionToken(unvalidated: "dflnat_\"quote\"_0123456789").shapeProblem(base64: GLibBase64()) == .forbiddenCharacters)
    }

    @Test func validityEndsAtTheExpiry() {
        let native = NativeActionToken(token: token, expiresAt: Fixtures.now)
        #expect(native.isValid(at: Fixtures.now.adding(milliseconds: -1)))
        #expect(!native.isValid(at: Fixtures.now))
    }
}
