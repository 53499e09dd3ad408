import CDFLDBus
import Testing
@testable import DFLDBus

@Suite struct MessageTests {
    private func roundTrip(_ values: [BusValue]) throws -> [BusValue] {
        let message = Message.methodCall(destination: "com.example.Test", path: "/com/example", interface: "com.example.Test", member: "Call")
        message.append(contentsOf: values)
        #expect(message.signature == values.map(\.signature).joined())
        return try message.arguments()
    }

    @Test func everyTypeRoundTrips() throws {
        let values: [BusValue] = [
            .byte(7), .boolean(true), .int16(-3), .uint16(65535), .int32(-70000), .uint32(4_000_000_000),
            .int64(.min), .uint64(.max), .double(1.5), .string("Zoë <b>"), .objectPath("/a/b"), .signature("a{sv}"),
            .strings(["x", "y"]), .array(elementSignature: "s", []),
            .vardict([("name", .string("Maya")), ("started_at_ms", .int64(1_795_988_460_000)), ("ok", .boolean(false))]),
            .structure([.string("a"), .uint32(1)]), .variant(.variant(.int32(5))),
            .array(elementSignature: "a{sv}", [.vardict([("k", .string("v"))]), .vardict([])]),
        ]
        #expect(try roundTrip(values) == values)
    }

    @Test func signaturesAreComputedFromTheValues() {
        #expect(BusValue.vardict([]).signature == "a{sv}")
        #expect(BusValue.structure([.int64(1), .strings([])]).signature == "(xas)")
        #expect(BusValue.dictEntry(.string("k"), .variant(.byte(1))).signature == "{sv}")
    }

    @Test func vardictEntriesUnwrapVariantsAndRefuseOtherShapes() {
        let dictionary = BusValue.vardict([("a", .string("x")), ("a", .int64(2))])
        #expect(dictionary.vardictEntries?.map(\.key) == ["a", "a"])
        #expect(dictionary.vardictEntries?.last?.value == .int64(2))
        #expect(BusValue.strings(["a"]).vardictEntries == nil)
        #expect(BusValue.array(elementSignature: "{ss}", [.dictEntry(.string("a"), .string("b"))]).vardictEntries == nil)
    }

    @Test func anEmbeddedNULCannotCutAStringShort() throws {
        let read = try roundTrip([.string("before\0after")])
        #expect(read == [.string("before\u{FFFD}after")])
    }

    @Test func aMessageWithTooManyValuesIsRefused() throws {
        let message = Message.methodCall(destination: nil, path: "/", interface: nil, member: "Flood")
        message.append(.array(elementSignature: "u", (0..<UInt32(Message.maximumValues + 1)).map(BusValue.uint32)))
        #expect(throws: BusError.self) { try message.arguments() }
    }

    @Test func repliesAndErrorsAnswerTheirCall() throws {
        let call = Message.methodCall(destination: "com.example.Test", path: "/", interface: "com.example.Test", member: "Do")
        // A call gets its serial when it is sent; libdbus aborts on a reply
        // to a serial of 0.
        dbus_message_set_serial(call.raw, 7)
        let error = call.errorReply(name: "com.example.Error.Nope", message: "Not today.")
        #expect(error.kind == .error)
        #expect(error.errorName == "com.example.Error.Nope")
        guard case .failure(let failure) = BusConnection.result(of: error) else {
            Issue.record("an error reply read as success")
            return
        }
        #expect(failure == BusError(name: "com.example.Error.Nope", message: "Not today."))
        let reply = call.methodReturn().append(.boolean(true))
        #expect(reply.kind == .methodReturn)
        #expect(try BusConnection.result(of: reply).get().arguments() == [.boolean(true)])
    }
}
