import SleepTimersAPI
import Testing

/// The contract module and the shipped introspection file say the same,
/// both ways: nothing in one is missing from the other.
@Suite struct ContractTests {
    let file: IntrospectionFile
    static let keysAnnotation = SleepTimers1.interface + ".DictionaryKeys"

    init() throws { file = try IntrospectionFile.load() }

    @Test func theFileDeclaresTheOneInterfaceAtTheBusNameAndObjectPath() {
        #expect(file.interfaces == [SleepTimers1.interface])
        let words = file.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("owns the name \(SleepTimers1.busName) on the session bus"))
        #expect(words.contains("serves this interface at \(SleepTimers1.objectPath)."))
    }

    @Test func everyMethodHasItsArgumentsAndReplyInOrder() {
        let ours = SleepTimers1.methods.map {
            IntrospectionFile.Member(name: $0.name, arguments: $0.arguments.map(\.description), reply: $0.reply.map(\.description))
        }
        let theirs = file.methods.map { IntrospectionFile.Member(name: $0.name, arguments: $0.arguments, reply: $0.reply) }
        #expect(ours == theirs)
    }

    @Test func everySignalHasItsArgumentsInOrder() {
        let ours = SleepTimers1.signals.map {
            IntrospectionFile.Member(name: $0.name, arguments: $0.arguments.map(\.description))
        }
        let theirs = file.signals.map { IntrospectionFile.Member(name: $0.name, arguments: $0.arguments, reply: $0.reply) }
        #expect(ours == theirs)
    }

    @Test func everyPropertyIsReadOnlyWithItsType() {
        #expect(SleepTimers1.Property.allCases.map { "\($0.signature) \($0.name) read" }
            == file.properties.map { "\($0.signature) \($0.name) \($0.access)" })
    }

    @Test func mirrorsKeysAreTheAnnotatedOnes() {
        let annotated = file.methods.first { $0.name == SleepTimers1.Mirror.name }?.dictionaryKeys["timer"]
        #expect(SleepTimers1.MirrorKey.allCases.map { "\($0.name):\($0.signature)\($0.isRequired ? "" : "?")" } == annotated)
    }

    @Test func listAndTimerChangedCarryTheAnnotatedTimerKeys() {
        let ours = SleepTimers1.TimerKey.allCases.map { "\($0.name):\($0.signature)" }
        #expect(file.methods.first { $0.name == SleepTimers1.List.name }?.dictionaryKeys["timers"] == ours)
        #expect(file.signals.first { $0.name == SleepTimers1.TimerChanged.name }?.dictionaryKeys["timer"] == ours)
    }

    @Test func onlyDictionaryArgumentsAreAnnotatedWithKeys() {
        for member in file.methods + file.signals {
            for name in member.dictionaryKeys.keys {
                let argument = (member.arguments + member.reply).first { $0.hasSuffix(" \(name)") }
                #expect(argument?.hasPrefix("a{sv} ") == true || argument?.hasPrefix("aa{sv} ") == true, "\(member.name)(\(name))")
            }
        }
    }

    @Test func theErrorNamesAreTheAnnotatedOnes() {
        #expect(SleepTimers1.ErrorName.allCases.map(\.rawValue).joined(separator: " ")
            == file.interfaceAnnotations[SleepTimers1.interface + ".ErrorNames"])
        #expect(SleepTimers1.ErrorName.unknownTimer.name == SleepTimers1.interface + ".Error.UnknownTimer")
    }

    @Test func inAndOutSignaturesJoinTheArguments() {
        #expect(SleepTimers1.Reconcile.inSignature == "sssas")
        #expect(SleepTimers1.List.inSignature == "")
        #expect(SleepTimers1.List.outSignature == "aa{sv}")
        #expect(SleepTimers1.CompletionFinished.signature == "sss")
    }
}
