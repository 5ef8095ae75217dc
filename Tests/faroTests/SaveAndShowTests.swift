import FaroCore
import FaroStore
import FaroTestSupport
import Foundation
import Testing

@testable import FaroWeb

/// "Guardar" and Guardados end to end: `faro save` against faro-backend, the archive's shape, and `faro show`
/// reading it back with no network at all.
@Suite("Save and show", .serialized)
struct SaveAndShowTests {
    @Test func savingFetchesThePageAndItsResourcesFreshAndWritesNoDeviceID() throws {
        let site = try TestSite(extraImages: 3)
        let backend = try TestBackend(data: site.data)
        let url = backend.base + "/sitios/prueba/"
        let saved = try PageSaver().save(
            url, deviceID: "356938035643809", now: Date(timeIntervalSince1970: 1_790_000_000))
        #expect(saved.title == "Página de prueba")
        #expect(saved.url == url)
        #expect(saved.resourceCount == 6)  // style.css, magenta.png, 3 extras, fondo.png (from the stylesheet)
        #expect(saved.missing.isEmpty)
        let text = String(decoding: saved.archive, as: UTF8.self)
        #expect(!text.contains("imei") && !text.contains("356938035643809"))
        let archive = try MHTReader.read(saved.archive)
        #expect(archive.location == url)
        #expect(archive.subject == "Página de prueba")
        #expect(archive.resource(for: "fondo.png")?.mediaType == "image/png")
        #expect(archive.resource(for: "magenta.png")?.body == TestPNG.solid(width: 40, height: 40, rgb: (255, 0, 255)))
        let log = try backend.requests()
        #expect(log.count == 7)
        #expect(log.filter { $0["query"] as? String == "imei=356938035643809" }.count == 1)  // only the page itself
        #expect(log.allSatisfy { $0["cache-control"] as? String == "no-cache" && $0["cookie"] is NSNull })
    }

    @Test func cliSaveAndShowWorkOfflineAndShowsNothingActive() throws {
        let site = try TestSite()
        let folder = try TemporaryDirectory("faro-web-cli")
        let backend = try TestBackend(data: site.data)
        let file = folder.file("prueba.mht")
        let faro = Paths.executable("faro")
        let env = folder.xdgEnvironment.merging(["FARO_MACHINE_ID_FILE": folder.file("machine-id")]) { $1 }
        try Data("51df0b4bc3b04c9780e299b98ca373b8\n".utf8).write(to: URL(fileURLWithPath: folder.file("machine-id")))
        let save = try ChildProcess.run(
            faro, ["save", backend.base + "/sitios/prueba/", "-o", file], environment: env, timeout: 60)
        #expect(save.status == 0, "\(save.stderr)")
        #expect(save.stdout.contains("with 3 resource(s) to Guardados #1 and \(file)"))
        let seen = try backend.requests().count
        backend.stop()  // the server is gone: whatever show prints comes from the file

        let show = try ChildProcess.run(faro, ["show", file], environment: env, timeout: 60)
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.hasPrefix("Página de prueba\n================"))
        #expect(show.stdout.contains(TestSite.sentence))
        #expect(show.stdout.contains("[image: Cuadro magenta]"))
        #expect(!show.stdout.contains("ejecutado") && !show.stdout.contains("document.title"))
        #expect(seen == 4)

    }

    @Test(.enabled(if: RequiredTool.unshareNet.shouldRun, Comment(rawValue: RequiredTool.unshareNet.reason)))
    func showWorksWithNoNetworkAtAll() throws {
        try RequiredTool.unshareNet.require()
        let site = try TestSite()
        let folder = try TemporaryDirectory("faro-web-offline")
        let backend = try TestBackend(data: site.data)
        let file = folder.file("prueba.mht")
        let faro = Paths.executable("faro")
        let save = try ChildProcess.run(
            faro, ["save", backend.base + "/sitios/prueba/", "-o", file, "--device-id", "356938035643809"],
            environment: folder.xdgEnvironment, timeout: 60)
        #expect(save.status == 0, "\(save.stderr)")
        backend.stop()
        // A fresh network namespace has not even a loopback interface up.
        let isolated = try ChildProcess.run(
            "/usr/bin/unshare", ["--net", "--", faro, "show", file], environment: folder.xdgEnvironment, timeout: 60)
        #expect(isolated.status == 0, "\(isolated.stderr)")
        #expect(isolated.stdout.contains(TestSite.sentence))
    }

    @Test func guardadosStoresListsOpensOfflineExportsAndDeletes() throws {
        let site = try TestSite()
        let folder = try TemporaryDirectory("faro-web-guardados")
        let backend = try TestBackend(data: site.data)
        let faro = Paths.executable("faro")
        let env = folder.xdgEnvironment
        let save = try ChildProcess.run(
            faro,
            [
                "save", backend.base + "/sitios/prueba/", "--business", "Panadería Prueba",
                "--device-id", "356938035643809",
            ], environment: env, timeout: 60)
        #expect(save.status == 0, "\(save.stderr)")
        #expect(save.stdout.contains("to Guardados #1"))
        backend.stop()

        let database = try FaroDatabase(path: FaroDatabase.defaultPath(environment: env))
        let list = try database.savedPages.list()
        try #require(list.count == 1)
        #expect(list[0].title == "Página de prueba")
        #expect(list[0].business == "Panadería Prueba")
        #expect(list[0].url == backend.base + "/sitios/prueba/")
        #expect(abs(list[0].savedAt - Date().timeIntervalSince1970) < 120)
        // Opening it needs nothing but the stored bytes (the server is gone).
        let bytes = try #require(try database.savedPages.archive(id: list[0].id))
        let opened = try ArchiveOpener.open(bytes)
        #expect(PlainTextRenderer.render(opened.document).contains(TestSite.sentence))
        #expect(
            opened.imageData(for: backend.base + "/sitios/prueba/magenta.png")
                == TestPNG.solid(width: 40, height: 40, rgb: (255, 0, 255)))
        // Export is the archive as a .mht file, which `faro show` (and Chromium) open.
        let exported = folder.file("export.mht")
        try Data(bytes).write(to: URL(fileURLWithPath: exported))
        let show = try ChildProcess.run(faro, ["show", exported], environment: env, timeout: 60)
        #expect(show.status == 0 && show.stdout.contains(TestSite.sentence))
        try database.savedPages.delete(id: list[0].id)
        #expect(try database.savedPages.list().isEmpty)
    }

    @Test func showRefusesBrokenArchivesWithAClearMessage() throws {
        let folder = try TemporaryDirectory("faro-web-broken")
        let file = folder.file("roto.mht")
        let archive = MHTWriter().write(
            MHTWriter.Page(
                url: "http://127.0.0.1/x/", title: "x", html: Array("<p>x</p>".utf8),
                charset: nil, savedAt: Date(), resources: []))
        try Data(archive.prefix(archive.count - 30)).write(to: URL(fileURLWithPath: file))
        let result = try ChildProcess.run(Paths.executable("faro"), ["show", file], environment: folder.xdgEnvironment)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cut short") && result.stderr.contains("save the page again"))
        let missing = try ChildProcess.run(
            Paths.executable("faro"), ["show", folder.file("nada.mht")], environment: folder.xdgEnvironment)
        #expect(missing.status == 1 && missing.stderr.contains("no such file"))
    }

    @Test func cliPageUsesTheMachineDerivedIDWithoutAModem() throws {
        let bus = try PrivateBus()  // a system bus with no ModemManager on it
        let folder = try TemporaryDirectory("faro-web-page")
        try Data("51df0b4bc3b04c9780e299b98ca373b8\n".utf8).write(to: URL(fileURLWithPath: folder.file("machine-id")))
        let backend = try TestBackend()
        let env = folder.xdgEnvironment.merging(bus.environment) { $1 }.merging([
            "FARO_MACHINE_ID_FILE": folder.file("machine-id")
        ]) { $1 }
        let page = try ChildProcess.run(
            Paths.executable("faro"), ["page", backend.base + "/sitios/panaderia-santa-clara/"],
            environment: env, timeout: 60)
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout.contains("Panadería Santa Clara"))
        let expected = try DeviceIDResolver(systemBusAddress: bus.address, machineIDPath: folder.file("machine-id"))
            .resolve()
        #expect(expected.source == .machine)
        #expect(try backend.requests().first?["query"] as? String == "imei=\(expected.value)")
    }

    @Test func cliShareLinksAndQRCode() throws {
        let folder = try TemporaryDirectory("faro-web-share")
        let png = folder.file("qr.png")
        let result = try ChildProcess.run(
            Paths.executable("faro"),
            [
                "share", "http://127.0.0.1:9/sitios/cafe/?imei=356938035643809", "--title", "Café", "--qr", png,
                "--qr-text",
            ],
            environment: folder.xdgEnvironment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("link\thttp://127.0.0.1:9/sitios/cafe/\n"))
        #expect(
            result.stdout.contains(
                "whatsapp\thttps://wa.me/?text=Caf%C3%A9%20http%3A%2F%2F127.0.0.1%3A9%2Fsitios%2Fcafe%2F\n"))
        #expect(!result.stdout.contains("356938035643809"))
        #expect(result.stdout.contains("█"))
        let bytes = try #require(FileManager.default.contents(atPath: png))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }
}
