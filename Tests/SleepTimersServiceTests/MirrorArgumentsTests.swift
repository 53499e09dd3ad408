import Glibc
import DFLDBus
import DFLTestSupport
import GLibParsing
import SleepTimerCore
import Testing
import SleepAgent
@testable import SleepTimersService

@Suite struct MirrorArgumentsTests {
    static let canary = Fixtures.canary

    static func entries(_ change: (inout [(String, BusValue)]) -> Void = { _ in }) -> BusValue {
        var entries: [(String, BusValue)] = [
            ("timer_id", .string(Fixtures.timerID)), ("api_origin", .string(Fixtures.origin)),
            ("user_id", .string(Fixtures.userID)), ("family_subject_id", .string(Fixtures.familyID)),
            ("baby_id", .string(Fixtures.babyID)), ("baby_name", .string("Maya")),
            ("activity_type", .string("sleep")), ("actor_mode", .string("self")),
            ("started_at_ms", .int64(1_795_983_480_000)), ("timezone", .string("Europe/Berlin")),
            ("action_token", .string(canary)), ("token_expires_at_ms", .int64(1_796_031_660_000)),
        ]
        change(&entries)
        return .vardict(entries)
    }

    @Test func readsEveryKeyAndDefaultsTheRevision() throws {
        let request = try MirrorArguments.decode(Self.entries())
        #expect(request.timerID == Fixtures.timerID)
        #expect(request.startedAtMilliseconds == 1_795_983_480_000)
        #expect(request.revision == 0)
        #expect(request.actionToken == ActionToken(unvalidated: Self.canary))
        let revised = try MirrorArguments.decode(Self.entries { $0.append(("revision", .int64(9))) })
        #expect(revised.revision == 9)
    }

    private func refusal(_ value: BusValue) -> ServiceError? {
        do {
            _ = try MirrorArguments.decode(value)
            return nil
        } catch {
            return error
        }
    }

    @Test func refusesMissingUnknownDuplicateAndMistypedKeys() {
        let missing = refusal(Self.entries { $0.removeAll { $0.0 == "timezone" } })
        #expect(missing?.code == .invalidArgument)
        #expect(missing?.message.contains("timezone") == true)
        #expect(refusal(Self.entries { $0.append(("colour", .string("blue"))) })?.message.contains("colour") == true)
        #expect(refusal(Self.entries { $0.append(("baby_name", .string("Leo"))) })?.message.contains("twice") == true)
        let mistyped = refusal(Self.entries { $0[8] = ("started_at_ms", .int32(5)) })
        #expect(mistyped?.message == "started_at_ms must be of D-Bus type x, not i.")
        #expect(refusal(.strings(["x"]))?.code == .invalidArgument)
        let huge = String(repeating: "k", count: 10_000)
        #expect((refusal(Self.entries { $0.append((huge, .string(""))) })?.message.count ?? .max) < 400)
    }

    @Test func noRefusalQuotesTheToken() {
        let cases = [
            Self.entries { $0.append(("action_token", .string(Self.canary))) },
            Self.entries { $0[10] = ("action_token", .int64(1)) },
            Self.entries { $0.append((Self.canary, .string(Self.canary))) },
        ]
        for value in cases {
            #expect(refusal(value).map { !$0.message.contains("CANARY") } == true)
        }
    }
}

@Suite struct TokenDescriptorTests {
    private func pipeWith(_ text: String) -> UnixFileDescriptor {
        var descriptors: [Int32] = [0, 0]
        _ = pipe(&descriptors)
        _ = text.utf8CString.withUnsafeBytes { write(descriptors[1], $0.baseAddress, text.utf8.count) }
        close(descriptors[1])
        return UnixFileDescriptor(taking: descriptors[0])
    }

    @Test func readsATokenFromAPipe() throws {
        let token = try MirrorArguments.readToken(from: pipeWith(MirrorArgumentsTests.canary + "\n"))
        #expect(token == ActionToken(unvalidated: MirrorArgumentsTests.canary))
    }

    @Test func readsATokenFromAFileWhateverItsOffset() throws {
        var template = Array("/tmp/dfl-token-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = MirrorArgumentsTests.canary.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress, MirrorArgumentsTests.canary.utf8.count) }
        let token = try MirrorArguments.readToken(from: UnixFileDescriptor(taking: descriptor))
        #expect(token == ActionToken(unvalidated: MirrorArgumentsTests.canary))
    }

    @Test func neverWaitsForAWriterThatSendsNothing() throws {
        var descriptors: [Int32] = [0, 0]
        _ = pipe(&descriptors)
        defer { close(descriptors[1]) }
        let token = try MirrorArguments.readToken(from: UnixFileDescriptor(taking: descriptors[0]))
        #expect(token.shapeProblem(base64: GLibBase64()) == .empty)
    }

    @Test func readsNoMoreThanALongTokenAndSeesItIsTooLong() throws {
        let token = try MirrorArguments.readToken(from: pipeWith(String(repeating: "a", count: 5000)))
        #expect(token.shapeProblem(base64: GLibBase64()) == .wrongLength)
    }

    @Test func leavesTheCallersPipeBlocking() throws {
        // The agent's duplicate shares the caller's open file: switching it
        // to non-blocking would switch the caller's too.
        var descriptors: [Int32] = [0, 0]
        _ = pipe(&descriptors)
        defer { close(descriptors[1]) }
        _ = MirrorArgumentsTests.canary.utf8CString.withUnsafeBytes {
            write(descriptors[1], $0.baseAddress, MirrorArgumentsTests.canary.utf8.count)
        }
        let shared = dup(descriptors[0])
        defer { close(shared) }
        let token = try MirrorArguments.readToken(from: UnixFileDescriptor(taking: descriptors[0]))
        #expect(token == ActionToken(unvalidated: MirrorArgumentsTests.canary))
        #expect(fcntl(shared, F_GETFL) & O_NONBLOCK == 0)
    }

    @Test func refusesTheWriteEndOfAPipe() {
        var descriptors: [Int32] = [0, 0]
        _ = pipe(&descriptors)
        defer { close(descriptors[0]) }
        #expect(throws: ServiceError.self) {
            try MirrorArguments.readToken(from: UnixFileDescriptor(taking: descriptors[1]))
        }
    }

    @Test func refusesSocketsAndOtherKinds() {
        var pair: [Int32] = [0, 0]
        _ = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair)
        defer { close(pair[1]) }
        #expect(throws: ServiceError.self) { try MirrorArguments.readToken(from: UnixFileDescriptor(taking: pair[0])) }
    }

    @Test func theDictionaryTakesExactlyOneFormOfTheToken() throws {
        let both = MirrorArgumentsTests.entries { $0.append(("action_token_fd", .unixFD(pipeWith("x")))) }
        #expect(throws: ServiceError.self) { try MirrorArguments.decode(both) }
        let neither = MirrorArgumentsTests.entries { $0.removeAll { $0.0 == "action_token" } }
        #expect(throws: ServiceError.self) { try MirrorArguments.decode(neither) }
        let descriptorOnly = MirrorArgumentsTests.entries {
            $0.removeAll { $0.0 == "action_token" }
            $0.append(("action_token_fd", .unixFD(pipeWith(MirrorArgumentsTests.canary))))
        }
        #expect(try MirrorArguments.decode(descriptorOnly).actionToken == ActionToken(unvalidated: MirrorArgumentsTests.canary))
    }
}
