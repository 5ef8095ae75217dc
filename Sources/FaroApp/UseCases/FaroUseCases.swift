/// The use cases the window offers, assembled once by the executable over the real stores (or by a test over
/// its own): the forms and the content view's actions call these and nothing below them.
public struct FaroUseCases: Sendable {
    public var saveContactDetails: SaveContactDetails
    public var registerBusiness: RegisterBusiness
    public var sendContactDetails: SendContactDetails
    public var rateSite: RateSite

    public init(
        saveContactDetails: SaveContactDetails, registerBusiness: RegisterBusiness,
        sendContactDetails: SendContactDetails, rateSite: RateSite
    ) {
        self.saveContactDetails = saveContactDetails
        self.registerBusiness = registerBusiness
        self.sendContactDetails = sendContactDetails
        self.rateSite = rateSite
    }

    /// The four, over one set of stores.
    public init(
        profile: any ContactProfileStore, outbox: any OutboxWriter, flags: any SiteFlags, deviceID: String,
        clock: @escaping @Sendable () -> Double
    ) {
        saveContactDetails = SaveContactDetails(store: profile, clock: clock)
        registerBusiness = RegisterBusiness(outbox: outbox, clock: clock)
        sendContactDetails = SendContactDetails(profile: profile, outbox: outbox, flags: flags, clock: clock)
        rateSite = RateSite(outbox: outbox, flags: flags, deviceID: deviceID, clock: clock)
    }
}
