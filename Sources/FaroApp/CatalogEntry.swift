import FaroCore

/// What the backend's catalog says about one beacon: the business (`cliente`), the site title (`titulo`) and the
/// microsite URL.
public struct CatalogPlace: Equatable, Sendable {
    public var identity: BeaconIdentity
    public var cliente: String
    public var titulo: String
    public var url: String

    public init(identity: BeaconIdentity, cliente: String, titulo: String, url: String) {
        self.identity = identity
        self.cliente = cliente
        self.titulo = titulo
        self.url = url
    }
}
