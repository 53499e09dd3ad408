// libFuzzer target: the agent's checks of a Mirror call as it arrives on the
// session bus.
//
// Each input is a serialized D-Bus message. libdbus parses it as it would
// parse one from the bus (dbus_message_demarshal validates everything the
// bus daemon would); its arguments are read with DFLDBus, and a single
// argument goes through MirrorArguments.decode and MirrorRule.mirroredTimer(for:now:) at a
// fixed moment. Invariants, each a trap when broken:
//
// - a refusal never quotes a value the caller sent: no refusal message holds
//   "CANARY" (the seeds carry it in the token, in keys and in values), nor
//   the token itself;
// - decode accepts exactly the dictionaries the D-Bus API documents;
// - a refusal names a field whose rule is really broken;
// - a success means every rule held.
//
// Random bytes rarely make a message libdbus accepts, so a custom mutator
// (below) mostly edits the dictionary itself (values, keys, types, entries)
// and serializes it again; the rest of the time libFuzzer mutates the bytes.
//
// libFuzzer's own main is linked in by `--sanitize=fuzzer`; this file has no
// top-level code. Run it through scripts/fuzz.sh.

import CDFLDBus
import DFLTestSupport
import GLibParsing
@testable import DFLDBus
@testable import SleepAgent
@testable import SleepTimersService
import SleepTimerCore
import SleepTimersAPI

/// 2026-11-29T21:41:00Z, the moment of the seeds.
let now = Fixtures.now
let allowedOrigin = Fixtures.origin
let zoneInfo = GLibTimeZones(path: "/usr/share/zoneinfo")
let rule = MirrorRule(allowedOrigins: AllowedOrigins([try! APIOrigin(parsing: allowedOrigin)]), timeZones: zoneInfo, base64: GLibBase64())

func violation(_ what: String) -> Never {
    fatalError("Mirror invariant violated: \(what)")
}

// MARK: The documented dictionary: the contract's keys (which a unit test
// holds against the introspection file), checked here without MirrorArguments

typealias Key = SleepTimers1.MirrorKey

/// Whether `value` is a Mirror dictionary the contract accepts: an a{sv}
/// of known keys, each once and of its type, every required key, and
/// exactly one of action_token and action_token_fd.
func isDocumentedDictionary(_ value: BusValue) -> Bool {
    guard case .array(let signature, let elements) = value, signature == "{sv}" else { return false }
    var seen: Set<Key> = []
    for element in elements {
        guard case .dictEntry(.string(let name), .variant(let inner)) = element,
            let key = Key(rawValue: name), seen.insert(key).inserted
        else { return false }
        switch (key.signature, inner) {
        case ("s", .string), ("x", .int64), ("h", .unixFD): break
        default: return false
        }
    }
    for key in Key.allCases where key.isRequired && !seen.contains(key) { return false }
    return seen.contains(.actionToken) != seen.contains(.actionTokenFD)
}

// MARK: The rules, independently of MirrorRule

func isUUID(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 36 else { return false }
    for (offset, byte) in bytes.enumerated() {
        if [8, 13, 18, 23].contains(offset) {
            guard byte == UInt8(ascii: "-") else { return false }
        } else {
            guard (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte) else { return false }
        }
    }
    return true
}

func isCanonicalUUID(_ text: String) -> Bool {
    isUUID(text) && !text.utf8.contains { (65...70).contains($0) }
}

func babyNameHolds(_ name: String) -> Bool {
    let scalars = name.unicodeScalars
    guard !scalars.allSatisfy(\.properties.isWhitespace) else { return false }
    guard name.count <= 64, scalars.count <= 256 else { return false }
    return !scalars.contains {
        (0x00...0x1F).contains($0.value) || (0x7F...0x9F).contains($0.value) || [0x2028, 0x2029].contains($0.value)
            || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
    }
}

func tokenCharactersHold(_ token: String) -> Bool {
    (16...1024).contains(token.utf8.count) && token.utf8.allSatisfy {
        (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0) || Array("-_.~+/=".utf8).contains($0)
    }
}

/// Whether the rule of `field` is broken by `request`, where it can be told
/// without the code under test.
func ruleBroken(_ field: Key, _ request: MirrorRequest) -> Bool {
    let startedAt = request.startedAtMilliseconds
    let expires = request.tokenExpiresAtMilliseconds
    let nowMilliseconds = now.millisecondsSince1970
    switch field {
    case .activityType: return request.activityType != "sleep"
    case .actorMode: return request.actorMode != "self"
    case .actionToken: return request.actionToken.withRevealedValue { !tokenCharactersHold($0) } || request.actionToken.shapeProblem(base64: GLibBase64()) != nil
    case .timerID: return !isUUID(request.timerID)
    case .userID: return !isUUID(request.userID)
    case .familySubjectID: return !isUUID(request.familySubjectID)
    case .babyID: return !isUUID(request.babyID)
    case .apiOrigin: return request.apiOrigin != allowedOrigin
    case .tokenExpiresAt: return expires <= nowMilliseconds || expires - nowMilliseconds > rule.maximumTokenLifetime.wholeMilliseconds
    case .babyName: return !babyNameHolds(request.babyName)
    case .startedAt:
        return startedAt > nowMilliseconds + 5 * Milliseconds.minute || startedAt < nowMilliseconds - 48 * Milliseconds.hour
    case .timeZone: return TimeZoneName(request.timeZone).flatMap(zoneInfo.rules(for:)) == nil
    case .revision: return request.revision < 0
    case .platformClockOffset:
        return request.platformClockOffset.map { $0 > MirrorRule.largestClockOffset || $0 < .zero - MirrorRule.largestClockOffset } ?? false
    case .actionTokenFD: violation("a refusal names \(field.name), which validation never sees")
    }
}

// MARK: Refusals

/// A refusal's message never holds a value the caller sent.
func checkRefusal(_ message: String, token: ActionToken?) {
    guard !message.contains("CANARY") else { violation("a refusal quotes the canary: \(message)") }
    token?.withRevealedValue { value in
        // A token of key-like characters can equal an unknown key, which is
        // named; any other token of a real token's length never shows.
        let keyLike = value.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
        if value.utf8.count >= 16, !keyLike, message.contains(value) {
            violation("a refusal quotes the token: \(message)")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size <= Int(Int32.max) else { return 0 }
    var error = DBusError()
    dbus_error_init(&error)
    let parsed = data.withMemoryRebound(to: CChar.self, capacity: size) { dbus_message_demarshal($0, Int32(size), &error) }
    guard let raw = parsed else {
        dbus_error_free(&error)
        return 0
    }
    let message = Message(taking: raw)

    let arguments: [BusValue]
    do {
        arguments = try message.arguments()
    } catch {
        checkRefusal(error.message, token: nil)
        return 0
    }
    guard arguments.count == 1 else { return 0 }

    let request: MirrorRequest
    do {
        request = try MirrorArguments.decode(arguments[0])
    } catch {
        checkRefusal(error.message, token: nil)
        guard error.code == .invalidArgument else { violation("decode refused with \(error.code), not InvalidArgument") }
        // A descriptor that is not a pipe or a file is refused after the
        // dictionary's shape was accepted.
        if isDocumentedDictionary(arguments[0]), !error.message.hasPrefix("action_token_fd") {
            violation("decode refused a documented dictionary: \(error.message)")
        }
        return 0
    }
    guard isDocumentedDictionary(arguments[0]) else { violation("decode accepted an undocumented dictionary") }

    let timer: MirroredTimer
    do {
        timer = try rule.mirroredTimer(for: request, now: now)
    } catch {
        checkRefusal(error.message, token: request.actionToken)
        checkRefusal(ServiceError(error).message, token: request.actionToken)
        guard ruleBroken(error.field, request) else {
            violation("refused for \(error.field.name), whose rule holds: \(error.message)")
        }
        return 0
    }

    // Every rule held (the origin's is checked on its normalized form below).
    for field in Key.allCases where field != .apiOrigin && field != .actionTokenFD && ruleBroken(field, request) {
        violation("accepted although the rule of \(field.name) is broken")
    }
    guard timer.babyName.text == request.babyName, timer.babyName.text.count <= BabyName.maximumCharacters else {
        violation("the accepted baby name is not the one sent, or longer than \(BabyName.maximumCharacters) characters")
    }
    guard timer.scope.apiOrigin.description == allowedOrigin else {
        violation("accepted the origin \(timer.scope.apiOrigin), which is not allowed")
    }
    for (id, sent) in [
        (timer.id.string, request.timerID), (timer.scope.userID.string, request.userID),
        (timer.scope.familySubjectID.string, request.familySubjectID), (timer.babyID.string, request.babyID),
    ] {
        guard isCanonicalUUID(id), id == sent.lowercased() else { violation("the id \(id) is not the canonical form of \(sent)") }
    }
    guard timer.startedAt.millisecondsSince1970 == request.startedAtMilliseconds,
        timer.tokenExpiresAt.millisecondsSince1970 == request.tokenExpiresAtMilliseconds,
        timer.tokenExpiresAt > now, timer.canCompleteNatively(at: now),
        timer.timeZone.identifier == request.timeZone, timer.revision == request.revision, timer.revision >= 0,
        timer.token == request.actionToken
    else { violation("the accepted timer differs from the request") }
    return 0
}

// MARK: The structure-aware mutator

/// libFuzzer's own byte mutator, `size_t LLVMFuzzerMutate(uint8_t *data,
/// size_t size, size_t maxSize)`, linked in by `--sanitize=fuzzer` (not
/// exported dynamically, so it is bound at link time; pointers and integers
/// pass in the same registers in Swift's and C's conventions).
@_silgen_name("LLVMFuzzerMutate")
func mutateBytes(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int) -> Int

/// The project's seeded generator, seeded by libFuzzer, so that a run can
/// be repeated.
typealias Random = SplitMix64

extension SplitMix64 {
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

let interestingStrings: [String] = [
    // ids
    "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "3F2504E0-4F89-41D3-9A0C-0305E82C3301",
    "{3f2504e0-4f89-41d3-9a0c-0305e82c3301}", "3f2504e0-4f89-41d3-9a0c-0305e82c330", "3f2504e0-4f89-41d3-9a0c-0305e82c330g",
    "3f2504e04f8941d39a0c0305e82c3301", "00000000-0000-0000-0000-000000000000",
    // origins
    "https://api.dreamsforlittles.example", "https://api.dreamsforlittles.example:443", "https://API.dreamsforlittles.example",
    "HTTPS://api.dreamsforlittles.example", "https://api.dreamsforlittles.example:8443", "https://api.dreamsforlittles.example.",
    "https://api.dreamsforlittles.example:0", "https://api.dreamsforlittles.example:65536", "https://api.dreamsforlittles.example:",
    "https://u:CANARY@api.dreamsforlittles.example", "https://api.dreamsforlittles.example/", "https://api.dreamsforlittles.example?CANARY",
    "https://api.dreamsforlittles.example#CANARY", "http://127.0.0.1:8443", "http://[::1]:8443", "https://[::ffff:127.0.0.1]",
    "https://127.1", "https://01.2.3.4", "https://xn--bcher-kva.example", "https://b\u{FC}cher.example", "ftp://api.dreamsforlittles.example",
    "https://", "://", "https:/api.dreamsforlittles.example",
    // names
    "Maya", String(repeating: "M", count: 64), String(repeating: "M", count: 65), String(repeating: "e\u{301}", count: 64),
    String(repeating: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", count: 52), String(repeating: "\u{1F1E9}\u{1F1EA}", count: 64),
    "a" + String(repeating: "\u{301}", count: 255), "Maya\u{202E}", "\u{2066}Maya", "Maya\n", "Maya\u{85}", "Maya\u{2028}",
    "\u{7F}", " ", "\u{3000}", "\u{200B}", "\u{FEFF}", "", "\r\n",
    // kinds and modes
    "sleep", "Sleep", "SLEEP", "breastfeeding", "pumping", "self", "coach", "SELF", "view-as",
    // zones
    "Europe/Berlin", "UTC", "Etc/GMT+5", "Etc/GMT-14", "posixrules", "right/UTC", "Factory", "America/Indiana/Knox",
    "America/Argentina/Buenos_Aires", "Europe", "Europe/", "/etc/passwd", "../../etc/passwd", "zone.tab", "localtime",
    "Europe//Berlin", "-Europe/Berlin", String(repeating: "A", count: 65),
    // tokens
    "dflnat_CANARY_q8Zr2mXv0Lw9sT4kP1nB7cY3uH6eJ5dA", "CANARYCANARYCANA", "CANARYCANARYCAN", "e30.e30.CANARY_signature_x",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.CANARY_signature", "eyJ9.eyJ9.CANARY_signature_x", "CANARY..........",
    "CANARY" + String(repeating: "x", count: 1018), "CANARY" + String(repeating: "x", count: 1019), "CANARY with a space ok",
    "CANARY%2Fencoded_token", "CANARY\u{E9}accented_token",
]

/// Milliseconds around the fuzzer's fixed now, on both sides of every bound.
let interestingNumbers: [Int64] = {
    let now = now.millisecondsSince1970
    let minute = Milliseconds.minute, hour = Milliseconds.hour, day = Milliseconds.day
    return [
        now, now - 1, now + 1, now - 83 * minute, now + 12 * hour, now + 5 * minute, now + 5 * minute + 1,
        now - 48 * hour, now - 48 * hour - 1, now + 30 * day, now + 30 * day + 1, 0, 1, -1, 3,
        .min, .min + 1, .max, .max - 1, Int64(Int32.max), Int64(Int32.min), now * 1000, now / 1000,
    ]
}()

let documentedKeyNames = Key.allCases.map(\.name).sorted()

/// A string changed by libFuzzer's byte mutator, mended into UTF-8.
func mutated(_ text: String) -> String {
    var bytes = Array(text.utf8)
    let capacity = min(max(bytes.count * 2, 64), 4096)
    let length = min(bytes.count, capacity)
    bytes = Array(bytes.prefix(length)) + [UInt8](repeating: 0, count: capacity - length)
    let size = bytes.withUnsafeMutableBufferPointer { mutateBytes($0.baseAddress, length, capacity) }
    return String(decoding: bytes.prefix(size), as: UTF8.self)
}

/// One value changed: within its type mostly, sometimes into another type.
func mutate(_ value: BusValue, _ random: inout Random) -> BusValue {
    if random.chance(10) {
        return random.pick([
            .string(random.pick(interestingStrings)), .int64(random.pick(interestingNumbers)), .int32(5), .uint64(3),
            .boolean(true), .variant(value), .objectPath("/CANARY"), .strings(["CANARY"]), .double(1.5),
            .structure([.string("CANARY")]),
        ])
    }
    switch value {
    case .string(let text):
        switch random.below(4) {
        case 0: return .string(random.pick(interestingStrings))
        case 1: return .string(mutated(text))
        case 2: return .string(text + random.pick(interestingStrings))
        default: return .string(text.uppercased())
        }
    case .int64(let number):
        switch random.below(3) {
        case 0: return .int64(random.pick(interestingNumbers))
        case 1: return .int64(number &+ (Int64(random.below(2001)) - 1000))
        default: return .int64(Int64(bitPattern: random.next()))
        }
    case .variant(let inner):
        return random.chance(50) ? inner : .variant(mutate(inner, &random))
    default:
        return .string(random.pick(interestingStrings))
    }
}

/// The dictionary's entries changed in one to three ways.
func mutate(_ entries: inout [(String, BusValue)], _ random: inout Random) {
    for _ in 0...random.below(3) {
        let index = random.below(entries.count)
        switch entries.isEmpty ? 6 : random.below(10) {
        case 0...3:
            entries[index].1 = mutate(entries[index].1, &random)
        case 4:
            entries.remove(at: index)
        case 5:
            entries.insert(entries[index], at: random.below(entries.count + 1))
        case 6:
            let key = random.chance(80) ? random.pick(documentedKeyNames) : random.pick(["CANARY", "colour", "Timer_id", "", "timer_id "])
            let value: BusValue = random.chance(50) ? .string(random.pick(interestingStrings)) : .int64(random.pick(interestingNumbers))
            entries.insert((key, value), at: random.below(entries.count + 1))
        case 7:
            entries[index].0 = random.chance(70) ? random.pick(documentedKeyNames) : mutated(entries[index].0)
        case 8:
            entries.swapAt(index, random.below(entries.count))
        default:
            // The same key for two entries of different types.
            let other = random.below(entries.count)
            entries[index].0 = entries[other].0
        }
    }
}

/// A Mirror call to the agent as the bus delivers it, serialized.
func serialize(_ arguments: [BusValue]) -> [UInt8]? {
    let message = Message.methodCall(
        destination: SleepTimers1.busName, path: SleepTimers1.objectPath,
        interface: SleepTimers1.interface, member: SleepTimers1.Mirror.name)
    message.append(contentsOf: arguments)
    dbus_message_set_serial(message.raw, 7)
    guard dbus_message_set_sender(message.raw, ":1.42") != 0 else { return nil }
    var bytes: UnsafeMutablePointer<CChar>?
    var length: Int32 = 0
    guard dbus_message_marshal(message.raw, &bytes, &length) != 0, let bytes else { return nil }
    defer { dbus_free(bytes) }
    return bytes.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
}

func containsDescriptor(_ value: BusValue) -> Bool {
    switch value {
    case .unixFD: return true
    case .variant(let inner): return containsDescriptor(inner)
    case .array(_, let elements), .structure(let elements): return elements.contains(where: containsDescriptor)
    case .dictEntry(let key, let value): return containsDescriptor(key) || containsDescriptor(value)
    default: return false
    }
}

@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    var random = Random(seed: UInt64(seed) | 0x5EED_0000_0000)
    byteLevel: do {
        guard random.chance(80), size <= Int(Int32.max) else { break byteLevel }
        var error = DBusError()
        dbus_error_init(&error)
        let parsed = UnsafeRawPointer(data).withMemoryRebound(to: CChar.self, capacity: size) {
            dbus_message_demarshal($0, Int32(size), &error)
        }
        guard let raw = parsed else {
            dbus_error_free(&error)
            break byteLevel
        }
        let message = Message(taking: raw)
        guard let arguments = try? message.arguments(), arguments.count == 1, !containsDescriptor(arguments[0]),
            let pairs = arguments[0].vardictEntries
        else { break byteLevel }
        var entries = pairs.map { ($0.key, $0.value) }
        mutate(&entries, &random)
        guard let bytes = serialize([.vardict(entries)]), bytes.count <= maxSize else { break byteLevel }
        bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: bytes.count) }
        return bytes.count
    }
    return mutateBytes(data, size, maxSize)
}
