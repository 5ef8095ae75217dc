import FaroCore

/// A microsite ready to show: its address without the device id, the readable document, and the images it
/// uses by source URL (fetched with the page, or read from a saved archive).
public struct LoadedSite: Sendable {
    public var url: String
    public var document: ReadableDocument
    public var images: [String: [UInt8]]

    public init(url: String, document: ReadableDocument, images: [String: [UInt8]]) {
        self.url = url
        self.document = document
        self.images = images
    }
}
