import CDFLDBus
import Testing
@testable import DFLDBus

@Suite struct NameOwnershipTests {
    private let name = "com.example.Service1"

    private func message(_ message: Message, from sender: String) -> Message {
        #expect(dbus_message_set_sender(message.raw, sender) != 0)
        return message
    }

    private func signal(from sender: String) -> Message {
        message(Message.signal(path: "/com/example/Service1", interface: name, member: "Finished"), from: sender)
    }

    private func ownerChanged(_ changedName: String, _ old: String, _ new: String, from sender: String = "org.freedesktop.DBus")
        -> Message
    {
        message(
            Message.signal(path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged")
                .append(.string(changedName), .string(old), .string(new)),
            from: sender)
    }

    private func answer(_ owner: String) -> Result<Message, BusError> {
        let question = Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetNameOwner")
        dbus_message_set_serial(question.raw, 3)
        return .success(question.methodReturn().append(.string(owner)))
    }

    private func owned(by owner: String) -> NameOwnership {
        var ownership = NameOwnership(name: name)
        ownership.answered(answer(owner))
        return ownership
    }

    @Test func nothingIsTheOwnersBeforeTheBusAnswers() {
        #expect(!NameOwnership(name: name).sent(signal(from: ":1.5")))
    }

    @Test func theAnsweredOwnersSignalsAreAcceptedAndNoOneElses() {
        let ownership = owned(by: ":1.5")
        #expect(ownership.sent(signal(from: ":1.5")))
        #expect(!ownership.sent(signal(from: ":1.6")))
    }

    @Test func aMessageWithoutASenderIsNotTheOwners() {
        #expect(!owned(by: ":1.5").sent(Message.signal(path: "/com/example/Service1", interface: name, member: "Finished")))
    }

    @Test func aNewOwnerReplacesTheOld() {
        var ownership = owned(by: ":1.5")
        let read = ownership.observe(ownerChanged(name, ":1.5", ":1.7"))
        #expect(read)
        #expect(ownership.owner == ":1.7")
        #expect(!ownership.sent(signal(from: ":1.5")))
        #expect(ownership.sent(signal(from: ":1.7")))
    }

    @Test func aNameThatLostItsOwnerAcceptsNothing() {
        var ownership = owned(by: ":1.5")
        ownership.observe(ownerChanged(name, ":1.5", ""))
        #expect(ownership.owner == nil)
        #expect(!ownership.sent(signal(from: ":1.5")))
    }

    @Test func aNameOwnerChangedFromAnotherConnectionIsIgnored() {
        var ownership = owned(by: ":1.5")
        let read = ownership.observe(ownerChanged(name, ":1.5", ":1.9", from: ":1.9"))
        #expect(!read)
        #expect(ownership.owner == ":1.5")
        #expect(!ownership.sent(signal(from: ":1.9")))
    }

    @Test func changesOfOtherNamesAreIgnored() {
        var ownership = owned(by: ":1.5")
        let read = ownership.observe(ownerChanged("com.example.Other", ":1.5", ":1.8"))
        #expect(!read)
        #expect(ownership.owner == ":1.5")
    }

    @Test func theLastWordWinsInArrivalOrder() {
        var ownership = NameOwnership(name: name)
        ownership.observe(ownerChanged(name, "", ":1.5"))
        ownership.answered(answer(":1.6"))
        #expect(ownership.owner == ":1.6")
        ownership.observe(ownerChanged(name, ":1.6", ":1.8"))
        #expect(ownership.owner == ":1.8")
    }

    @Test func anAnswerThatTheNameHasNoOwnerLeavesNone() {
        var ownership = owned(by: ":1.5")
        ownership.answered(.failure(BusError(name: BusError.Names.nameHasNoOwner, message: "no owner")))
        #expect(ownership.owner == nil)
    }
}
