import FaroInstall
import FaroTestSupport
import Foundation
import Testing

/// The app id an install names in `share/faro/app-id` (meson writes it for both profiles; scripts/check-meson.sh
/// installs the development profile and runs its faro).
@Suite("App id of an install")
struct AppIdentityTests {
    @Test func withoutAFileItIsTheStandardID() throws {
        let folder = try TemporaryDirectory()
        #expect(try AppIdentity.resolve(dataDirectory: folder.path).get() == "io.github.faro.Faro")
        #expect(try AppIdentity.resolve(dataDirectory: nil).get() == "io.github.faro.Faro")
        // The source tree's data/ has the template, never an app-id of its own.
        #expect(try AppIdentity.resolve(dataDirectory: Paths.data).get() == "io.github.faro.Faro")
    }

    @Test func aDevelopmentInstallNamesItsID() throws {
        let folder = try TemporaryDirectory()
        try "io.github.faro.Faro.Devel\n".write(toFile: folder.file("app-id"), atomically: true, encoding: .utf8)
        #expect(try AppIdentity.resolve(dataDirectory: folder.path).get() == "io.github.faro.Faro.Devel")
    }

    @Test func anyOtherIDIsRefusedWithThePathAndWhatItSaid() throws {
        let folder = try TemporaryDirectory()
        try "org.example.Other\n".write(toFile: folder.file("app-id"), atomically: true, encoding: .utf8)
        let error = try #require(throws: AppIdentityError.self) {
            try AppIdentity.resolve(dataDirectory: folder.path).get()
        }
        #expect(error.found == "org.example.Other")
        #expect(error.description.contains(folder.file("app-id")))
    }

    /// meson.build fills the template with the profile's id.
    @Test func theTemplateIsTheAppIDAlone() throws {
        let text = try String(contentsOfFile: Paths.data + "/app-id.in", encoding: .utf8)
        #expect(text == "@APP_ID@\n")
    }
}
