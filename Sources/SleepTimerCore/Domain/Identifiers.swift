/// A UUID in its canonical lower-case form.
///
/// Ids arrive from other processes and end up in deep links, SQL rows and
/// D-Bus replies, so they are parsed strictly: exactly 8-4-4-4-12 hexadecimal
/// digits. The stored form is lower-case, so two spellings of one id compare
/// equal.
public struct CanonicalUUID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let string: String

    public init?(_ text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return nil }
        var canonical = [UInt8]()
        canonical.reserveCapacity(36)
        for (offset, byte) in utf8.enumerated() {
            switch offset {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return nil }
                canonical.append(byte)
            default:
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"):
                    canonical.append(byte)
                case UInt8(ascii: "A")...UInt8(ascii: "F"):
                    canonical.append(byte + 32)
                default:
                    return nil
                }
            }
        }
        self.string = String(decoding: canonical, as: UTF8.self)
    }

    public var description: String { string }

    public static func < (lhs: CanonicalUUID, rhs: CanonicalUUID) -> Bool { lhs.string < rhs.string }
}

/// A typed id, so that a baby id can never be passed where a timer id is
/// expected.
public struct Identifier<Kind>: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let uuid: CanonicalUUID

    public init(_ uuid: CanonicalUUID) { self.uuid = uuid }

    public init?(_ text: some StringProtocol) {
        guard let uuid = CanonicalUUID(text) else { return nil }
        self.uuid = uuid
    }

    public var string: String { uuid.string }
    public var description: String { uuid.string }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.uuid < rhs.uuid }
}

public enum TimerKind {}
public enum BabyKind {}
public enum UserKind {}
public enum FamilySubjectKind {}

public typealias TimerID = Identifier<TimerKind>
public typealias BabyID = Identifier<BabyKind>
public typealias UserID = Identifier<UserKind>
public typealias FamilySubjectID = Identifier<FamilySubjectKind>
