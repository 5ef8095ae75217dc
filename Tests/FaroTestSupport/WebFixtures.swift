import FaroCore
import FaroWeb
import Foundation

/// A real `faro-backend` for one test, on a free loopback port, serving the microsites of a data folder the
/// test writes (or the source tree's `data/`), with its microsite request log readable through `/debug/requests`.
public final class TestBackend: @unchecked Sendable {
    public let backend: BackendProcess
    public var base: String { backend.url }

    public init(data: String = Paths.data, siteLatencyMilliseconds: Int = 0) throws {
        backend = try BackendProcess(
            ["--data", data, "--debug"],
            environment: ["FARO_BACKEND_SITE_LATENCY_MS": String(siteLatencyMilliseconds)])
    }

    /// The requests the backend saw on `/sitios/…` and `/debug/redirect`, oldest first.
    public func requests() throws -> [[String: Any]] {
        let response = try FreshFetcher().fetch(base + "/debug/requests")
        let json = try JSONSerialization.jsonObject(with: Data(response.body))
        return json as? [[String: Any]] ?? []
    }

    /// Kills the server.
    public func stop() { backend.stop() }
}

public struct WebTestError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// A data folder with one microsite (`/sitios/prueba/`): a page with a unique sentence, a stylesheet with a
/// background image, and a solid magenta picture, plus `count` extra small images when asked.
public final class TestSite: @unchecked Sendable {
    public let folder: TemporaryDirectory
    public static let sentence = "Texto de prueba único para Guardados"

    public init(extraImages count: Int = 0, pageBytes: [UInt8]? = nil) throws {
        folder = try TemporaryDirectory("faro-web-site")
        let site = folder.file("demo/sites/prueba")
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        try Data(#"{"uuid": "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1", "beacons": []}"#.utf8)
            .write(to: URL(fileURLWithPath: folder.file("demo/beacons.json")))
        let extras = (0..<count).map { "<img src=\"extra\($0).png\" alt=\"extra \($0)\">" }.joined()
        let html = """
            <!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>Página de prueba</title>
            <link rel="stylesheet" href="style.css"></head>
            <body><h1>Prueba</h1><p>\(Self.sentence)</p>
            <img src="magenta.png" alt="Cuadro magenta" width="200" height="200">\(extras)
            <script>document.title = "ejecutado"</script></body></html>
            """
        try Data(pageBytes ?? Array(html.utf8)).write(to: URL(fileURLWithPath: site + "/index.html"))
        try Data("body { background: #fff url(fondo.png) no-repeat; } h1 { color: #000; }".utf8)
            .write(to: URL(fileURLWithPath: site + "/style.css"))
        try Data(TestPNG.solid(width: 40, height: 40, rgb: (255, 0, 255))).write(
            to: URL(fileURLWithPath: site + "/magenta.png"))
        try Data(TestPNG.solid(width: 4, height: 4, rgb: (250, 250, 250))).write(
            to: URL(fileURLWithPath: site + "/fondo.png"))
        for n in 0..<count {
            try Data(TestPNG.solid(width: 2, height: 2, rgb: (UInt8(n), 0, 0))).write(
                to: URL(fileURLWithPath: site + "/extra\(n).png"))
        }
    }

    public var data: String { folder.path }
}

/// Tiny RGB PNGs for fixtures.
public enum TestPNG {
    public static func solid(width: Int, height: Int, rgb: (UInt8, UInt8, UInt8)) -> [UInt8] {
        var raw: [UInt8] = []
        for _ in 0..<height {
            raw.append(0)
            for _ in 0..<width { raw += [rgb.0, rgb.1, rgb.2] }
        }
        return PNG.image(width: width, height: height, bitDepth: 8, colorType: .rgb, scanlines: raw)
    }
}

/// A value shared between a test and a callback thread.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    public init(_ value: Value) { self.value = value }
    public func get() -> Value {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    public func set(_ newValue: Value) {
        lock.lock()
        value = newValue
        lock.unlock()
    }
}
