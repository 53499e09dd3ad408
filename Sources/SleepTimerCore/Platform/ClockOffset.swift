/// The platform's clock minus this desktop's, estimated from one answer: its
/// `Date` header (RFC 9110, section 6.6.1) against the moments the request
/// left and its answer arrived here.
///
/// The header names the whole second in which the platform made the
/// answer, so the platform's time then lies somewhere in that second; the
/// desktop's time then lies somewhere between sending and receiving. The
/// estimate takes the middle of each: the second's middle minus the
/// request's midpoint. It is off by at most half a second plus half the
/// round trip, far less than the skew that matters (a completion time
/// more than a minute in the platform's future is refused).
public struct ClockOffsetEstimate: Sendable, Equatable {
    /// Platform time minus desktop time.
    public let milliseconds: Int64
    /// How far the true offset can lie from `milliseconds`, either way.
    public let uncertainty: Int64

    /// Nil when the header is not an HTTP-date, or when the answer arrived
    /// before the request left (the desktop's clock was set in between).
    public init?(dateHeader: String, sentAt: Instant, receivedAt: Instant) {
        let roundTrip = receivedAt.milliseconds(since: sentAt)
        guard roundTrip >= 0, let second = HTTPDate.parse(dateHeader.trimmingSpacesAndTabs(), now: receivedAt) else {
            return nil
        }
        let platformMiddle = second.adding(milliseconds: Milliseconds.second / 2)
        let desktopMiddle = sentAt.adding(milliseconds: roundTrip / 2)
        milliseconds = platformMiddle.milliseconds(since: desktopMiddle)
        uncertainty = Milliseconds.second / 2 + (roundTrip + 1) / 2
    }

    /// The least the offset can be: the header's second's start minus the
    /// answer's arrival, whatever the round trip. A time shifted by it is
    /// never in the platform's future; a completion's time is corrected by
    /// it.
    public var earliest: Duration { .milliseconds(milliseconds - uncertainty) }
}
