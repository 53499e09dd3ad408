/// The UTC offsets of one time zone over time, read from a TZif file
/// (RFC 8536) as found in /usr/share/zoneinfo.
///
/// The agent reads zone files itself rather than through Foundation's
/// TimeZone, which on Linux needs the ICU data of FoundationInternationalization:
/// several megabytes of memory in a process that should stay small.
public struct TimeZoneRules: Sendable, Equatable {
    struct LocalTimeType: Sendable, Equatable {
        var utcOffset: Int32
        var isDaylightSaving: Bool
    }

    /// Transition times in seconds since the epoch, ascending.
    let transitions: [Int64]
    /// For each transition, the index of the local time type it starts.
    let transitionTypes: [Int]
    let types: [LocalTimeType]
    /// The rule for times after the last transition (the TZif footer).
    let footer: PosixTimeZoneRule?

    public enum ParseError: Error, Sendable, Equatable {
        case notTZif
        case truncated
        case inconsistent
    }

    /// A zone with one fixed offset, for tests and for `Etc/` style zones
    /// built in code.
    public init(fixedOffsetSeconds: Int32) {
        transitions = []
        transitionTypes = []
        types = [LocalTimeType(utcOffset: fixedOffsetSeconds, isDaylightSaving: false)]
        footer = nil
    }

    public init(tzif bytes: [UInt8]) throws(ParseError) {
        var reader = ByteReader(bytes)
        let first = try Header(reading: &reader)
        if first.version == 0 {
            try self.init(block: &reader, header: first, timeSize: 4)
            return
        }
        // Version 2 and later repeat the data with 64-bit times, then a
        // footer: skip the 32-bit block and read the second.
        try reader.skip(first.blockSize(timeSize: 4))
        let second = try Header(reading: &reader)
        try self.init(block: &reader, header: second, timeSize: 8)
    }

    private init(block reader: inout ByteReader, header: Header, timeSize: Int) throws(ParseError) {
        var transitions: [Int64] = []
        transitions.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            transitions.append(timeSize == 4 ? Int64(try reader.int32()) : try reader.int64())
        }
        var transitionTypes: [Int] = []
        transitionTypes.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            let index = Int(try reader.uint8())
            guard index < header.typeCount else { throw .inconsistent }
            transitionTypes.append(index)
        }
        var types: [LocalTimeType] = []
        for _ in 0..<header.typeCount {
            let offset = try reader.int32()
            let isDST = try reader.uint8() != 0
            _ = try reader.uint8()  // abbreviation index: the display never shows abbreviations
            types.append(LocalTimeType(utcOffset: offset, isDaylightSaving: isDST))
        }
        try reader.skip(header.charCount + header.leapCount * (timeSize + 4) + header.standardCount + header.utcCount)
        guard zip(transitions, transitions.dropFirst()).allSatisfy({ $0 < $1 }) else { throw .inconsistent }

        var footer: PosixTimeZoneRule?
        if timeSize == 8, let text = reader.footerText(), !text.isEmpty {
            footer = PosixTimeZoneRule(text)
            if footer == nil { throw .inconsistent }
        }
        self.transitions = transitions
        self.transitionTypes = transitionTypes
        self.types = types
        self.footer = footer
    }

    /// Seconds east of UTC in effect at `seconds` since the epoch.
    public func utcOffset(atSecondsSince1970 seconds: Int64) -> Int32 {
        guard let lastTransition = transitions.last else {
            return footer?.utcOffset(atSecondsSince1970: seconds) ?? types[0].utcOffset
        }
        if seconds < transitions[0] { return types[0].utcOffset }
        if seconds >= lastTransition, let footer { return footer.utcOffset(atSecondsSince1970: seconds) }
        // The last transition at or before `seconds`.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= seconds { low = middle } else { high = middle - 1 }
        }
        return types[transitionTypes[low]].utcOffset
    }

    public func utcOffset(at instant: Instant) -> Int32 {
        utcOffset(atSecondsSince1970: CivilTime.floorDivide(instant.millisecondsSince1970, 1000))
    }

    private struct Header {
        var version: UInt8
        var utcCount: Int
        var standardCount: Int
        var leapCount: Int
        var timeCount: Int
        var typeCount: Int
        var charCount: Int

        init(reading reader: inout ByteReader) throws(ParseError) {
            guard try reader.bytes(4).elementsEqual("TZif".utf8) else { throw .notTZif }
            let versionByte = try reader.uint8()
            switch versionByte {
            case 0: version = 0
            case UInt8(ascii: "2")...UInt8(ascii: "9"): version = versionByte - UInt8(ascii: "0")
            default: throw .notTZif
            }
            try reader.skip(15)
            func count(_ reader: inout ByteReader, limit: Int) throws(ParseError) -> Int {
                let value = try reader.int32()
                guard value >= 0, Int(value) <= limit else { throw .inconsistent }
                return Int(value)
            }
            // Limits far above any real zone, so a damaged file cannot make
            // the reader allocate without bound.
            utcCount = try count(&reader, limit: 256)
            standardCount = try count(&reader, limit: 256)
            leapCount = try count(&reader, limit: 1024)
            timeCount = try count(&reader, limit: 65536)
            typeCount = try count(&reader, limit: 256)
            charCount = try count(&reader, limit: 4096)
            guard typeCount >= 1 else { throw .inconsistent }
        }

        func blockSize(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4)
                + standardCount + utcCount
        }
    }
}

/// Reads big-endian fields from a TZif file, refusing to run past its end.
struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func bytes(_ count: Int) throws(TimeZoneRules.ParseError) -> ArraySlice<UInt8> {
        guard count >= 0, bytes.count - offset >= count else { throw .truncated }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func skip(_ count: Int) throws(TimeZoneRules.ParseError) {
        _ = try bytes(count)
    }

    mutating func uint8() throws(TimeZoneRules.ParseError) -> UInt8 {
        try bytes(1).first!
    }

    mutating func int32() throws(TimeZoneRules.ParseError) -> Int32 {
        var value: UInt32 = 0
        for byte in try bytes(4) { value = value << 8 | UInt32(byte) }
        return Int32(bitPattern: value)
    }

    mutating func int64() throws(TimeZoneRules.ParseError) -> Int64 {
        var value: UInt64 = 0
        for byte in try bytes(8) { value = value << 8 | UInt64(byte) }
        return Int64(bitPattern: value)
    }

    /// The footer of a version 2+ file: a TZ string between two newlines.
    mutating func footerText() -> String? {
        let rest = bytes[offset...]
        guard rest.first == UInt8(ascii: "\n") else { return nil }
        let body = rest.dropFirst()
        guard let end = body.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return String(decoding: body[..<end], as: UTF8.self)
    }
}
