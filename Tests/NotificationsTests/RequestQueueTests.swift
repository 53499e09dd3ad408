@testable import Notifications
import DFLTestSupport
import SleepTimerCore
import Testing

@Suite struct RequestQueueTests {
    let a = Fixtures.timerID(1)
    let b = Fixtures.timerID(2)

    func text(_ body: String) -> NotificationContent {
        NotificationContent(summary: "Maya is asleep", body: body, actions: [.open, .complete], persistent: true)
    }

    @Test func aNewerTextForTheSameObjectReplacesTheWaitingOneInItsPlace() {
        var queue = RequestQueue()
        queue.append(.show(a, epoch: 1, text("1 min"), replacing: 9))
        queue.append(.show(b, epoch: 2, text("5 min"), replacing: 0))
        queue.append(.show(a, epoch: 1, text("2 min"), replacing: 0))
        #expect(queue.requests == [.show(a, epoch: 1, text("2 min"), replacing: 9), .show(b, epoch: 2, text("5 min"), replacing: 0)])
    }

    @Test func aCloseCancelsTheWaitingShowOfItsObject() {
        var queue = RequestQueue()
        queue.append(.show(a, epoch: 1, text("1 min"), replacing: 0))
        queue.append(.close(a, epoch: 1))
        #expect(queue.requests == [.close(a, epoch: 1)])
    }

    @Test func aNewerCloseCoversAnOlderOneAndKeepsItsPlaceBeforeANewerShow() {
        var queue = RequestQueue()
        queue.append(.close(a, epoch: 1))
        queue.append(.show(a, epoch: 2, text("1 min"), replacing: 0))
        queue.append(.close(a, epoch: 2))
        #expect(queue.requests == [.close(a, epoch: 2)])
    }

    @Test func aDropNeverTakesTheSlotOfAClose() {
        var queue = RequestQueue()
        queue.append(.close(a, epoch: 1))
        queue.append(.drop(a, epoch: 2))
        #expect(queue.requests == [.close(a, epoch: 1), .drop(a, epoch: 2)])
    }

    @Test func dropAllLeavesOnlyItself() {
        var queue = RequestQueue()
        queue.append(.show(a, epoch: 1, text("1 min"), replacing: 0))
        queue.append(.close(b, epoch: 2))
        queue.append(.dropAll)
        #expect(queue.requests == [.dropAll])
    }

    /// As the surface asks while a hung server holds the thread: objects
    /// made, updated, closed and forgotten over and over for two timers.
    @Test func aStalledThreadNeverGathersMoreThanThreeRequestsATimer() {
        var queue = RequestQueue()
        var epoch: UInt64 = 0
        for round in 0..<500 {
            for id in [a, b] {
                epoch += 1
                queue.append(.show(id, epoch: epoch, text("\(round) min"), replacing: 0))
                queue.append(.show(id, epoch: epoch, text("\(round + 1) min"), replacing: 0))
                queue.append(round % 2 == 0 ? .close(id, epoch: epoch) : .drop(id, epoch: epoch))
            }
        }
        epoch += 1
        queue.append(.show(a, epoch: epoch, text("last"), replacing: 0))
        #expect(queue.requests.count <= 6)
        #expect(queue.requests.last == .show(a, epoch: epoch, text("last"), replacing: 0))
    }

    @Test func aCloseAlsoCancelsTheShowOfAnOlderObject() {
        var queue = RequestQueue()
        queue.append(.show(a, epoch: 1, text("1 min"), replacing: 0))
        queue.append(.close(a, epoch: 3))
        #expect(queue.requests == [.close(a, epoch: 3)])
    }

    @Test func takingEmptiesTheQueue() {
        var queue = RequestQueue()
        queue.append(.dropAll)
        #expect(queue.takeAll() == [.dropAll])
        #expect(queue.requests.isEmpty)
    }
}
