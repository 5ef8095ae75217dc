import FaroCore
import FaroNet

/// The window's outbox deliverer: the background schedule, with the retry limits `FARO_OUTBOX_MAX_ATTEMPTS` and
/// `FARO_OUTBOX_MAX_AGE_DAYS` taken from `environment` as `faro outbox flush` takes them (docs/outbox.md).
enum WindowOutbox {
    static func deliverer(
        databasePath: String, configuration: BackendConfiguration, environment: [String: String]
    ) -> OutboxDeliverer {
        OutboxDeliverer(
            databasePath: databasePath, configuration: configuration,
            policy: OutboxRetryPolicy(environment: environment))
    }
}
