import Testing
@testable import DFLDBus

/// The answers every object of the project gives, decided without a bus.
@Suite struct ObjectDispatchTests {
    static let path = "/com/example/Thing"
    static let interface = "com.example.Thing"
    /// Made at each read: held in a stored static, the values are reachable
    /// only through pointers Swift tags, which LeakSanitizer cannot follow.
    static var values: [(String, BusValue)] { [("Count", .uint32(2)), ("Name", .string("thing"))] }

    let serving = ObjectDispatch(
        path: path, interface: interface, methods: ["Poke": "s", "Nothing": ""], properties: { values }, refusal: nil)

    static func call(_ interface: String?, _ member: String, _ values: BusValue...) -> Message {
        Message.methodCall(destination: nil, path: path, interface: interface, member: member).append(contentsOf: values)
    }

    static func properties(_ member: String, _ values: BusValue...) -> Message {
        Message.methodCall(destination: nil, path: path, interface: StandardInterface.Properties.name, member: member)
            .append(contentsOf: values)
    }

    private func errorName(_ answer: ObjectDispatch.Answer) -> String? {
        guard case .error(let name, let text) = answer else { return nil }
        #expect(text.first?.isLetter == true, "an error says a sentence")
        return name
    }

    @Test func aMethodOfItsOwnIsHandedOnWithItsArguments() {
        #expect(serving.answer(to: Self.call(Self.interface, "Poke", .string("a"))) == .call(member: "Poke", arguments: [.string("a")]))
        // A call without an interface goes to the object's own.
        #expect(serving.answer(to: Self.call(nil, "Nothing")) == .call(member: "Nothing", arguments: []))
    }

    @Test func aWrongSignatureAnUnknownMethodAndAnUnknownInterfaceAreRefused() {
        #expect(errorName(serving.answer(to: Self.call(Self.interface, "Poke", .int32(1)))) == BusError.Names.invalidArgs)
        #expect(errorName(serving.answer(to: Self.call(Self.interface, "Explode"))) == BusError.Names.unknownMethod)
        #expect(errorName(serving.answer(to: Self.call("com.example.Other", "Poke", .string("a")))) == BusError.Names.unknownInterface)
    }

    @Test func signalsAndRepliesAreLeftToOtherHandlers() {
        #expect(serving.answer(to: Message.signal(path: Self.path, interface: Self.interface, member: "Poked")) == .unhandled)
    }

    @Test func introspectTakesNoArguments() {
        let introspectable = StandardInterface.Introspectable.self
        #expect(serving.answer(to: Self.call(introspectable.name, introspectable.introspect)) == .introspection)
        #expect(errorName(serving.answer(to: Self.call(introspectable.name, introspectable.introspect, .string("x"))))
            == BusError.Names.invalidArgs)
        #expect(errorName(serving.answer(to: Self.call(introspectable.name, "Explode"))) == BusError.Names.unknownMethod)
    }

    @Test func propertiesAreReadOnly() {
        let names = StandardInterface.Properties.self
        #expect(serving.answer(to: Self.properties(names.getAll, .string(Self.interface))) == .reply(.vardict(Self.values)))
        #expect(serving.answer(to: Self.properties(names.getAll, .string(""))) == .reply(.vardict(Self.values)))
        #expect(serving.answer(to: Self.properties(names.get, .string(Self.interface), .string("Name")))
            == .reply(.variant(.string("thing"))))
        #expect(errorName(serving.answer(to: Self.properties(names.get, .string(Self.interface), .string("Colour"))))
            == BusError.Names.unknownProperty)
        #expect(errorName(serving.answer(to: Self.properties(names.set, .string(Self.interface), .string("Name"), .variant(.string("x")))))
            == BusError.Names.propertyReadOnly)
        #expect(errorName(serving.answer(to: Self.properties(names.set, .string(Self.interface), .string("Colour"), .variant(.string("x")))))
            == BusError.Names.unknownProperty)
        #expect(errorName(serving.answer(to: Self.properties(names.get, .string("com.example.Other"), .string("Name"))))
            == BusError.Names.unknownInterface)
        #expect(errorName(serving.answer(to: Self.properties(names.get, .string(Self.interface))))
            == BusError.Names.invalidArgs)
        #expect(errorName(serving.answer(to: Self.properties("Explode"))) == BusError.Names.unknownMethod)
    }

    @Test func noRefusalRepeatsANameTheCallerChose() {
        let chosen = "zzCallerChosenzz"
        let answers = [
            serving.answer(to: Self.call(Self.interface, chosen)),
            serving.answer(to: Self.call("com.example." + chosen, "Poke", .string("a"))),
            serving.answer(to: Self.properties(StandardInterface.Properties.get, .string(Self.interface), .string(chosen))),
            serving.answer(to: Self.properties(StandardInterface.Properties.getAll, .string("com.example." + chosen))),
        ]
        for answer in answers {
            guard case .error(_, let text) = answer else {
                Issue.record("not refused: \(answer)")
                continue
            }
            #expect(!text.contains(chosen))
        }
    }

    @Test func anObjectThatCannotServeRefusesAllButIntrospectionAndReading() {
        let refusal = BusError(name: "com.example.Error.Broken", message: "The thing is broken.")
        let reading = ObjectDispatch(path: Self.path, interface: Self.interface, methods: [:], properties: { Self.values }, refusal: refusal)
        let silent = ObjectDispatch(path: Self.path, interface: Self.interface, methods: [:], properties: nil, refusal: refusal)
        let refused = ObjectDispatch.Answer.error(name: refusal.name, text: refusal.message)
        let names = StandardInterface.Properties.self
        for dispatch in [reading, silent] {
            #expect(dispatch.answer(to: Self.call(StandardInterface.Introspectable.name, StandardInterface.Introspectable.introspect))
                == .introspection)
            #expect(dispatch.answer(to: Self.call(Self.interface, "Poke", .string("a"))) == refused)
            #expect(dispatch.answer(to: Self.call(Self.interface, "Poke", .int32(1))) == refused)
            #expect(dispatch.answer(to: Self.call("com.example.Other", "Poke")) == refused)
            #expect(dispatch.answer(to: Self.properties(names.set, .string(Self.interface), .string("Name"), .variant(.string("x"))))
                == refused)
        }
        #expect(reading.answer(to: Self.properties(names.getAll, .string(Self.interface))) == .reply(.vardict(Self.values)))
        #expect(reading.answer(to: Self.properties(names.get, .string(Self.interface), .string("Count"))) == .reply(.variant(.uint32(2))))
        #expect(silent.answer(to: Self.properties(names.getAll, .string(Self.interface))) == refused)
        #expect(silent.answer(to: Self.properties(names.get, .string(Self.interface), .string("Count"))) == refused)
    }

    @Test func onlyChangedPropertiesAreSignalled() {
        let now: [(String, BusValue)] = [("Count", .uint32(3)), ("Name", .string("thing"))]
        let changed = ObjectDispatch.changes(from: Self.values, to: now)
        #expect(changed.map(\.0) == ["Count"])
        #expect(ObjectDispatch.changes(from: Self.values, to: Self.values).isEmpty)
    }
}
