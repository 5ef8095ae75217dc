import FaroCore
import FaroStore
import FaroTestSupport
import Foundation

/// A registration that passes the form rules, numbered so rows differ.
func registration(_ n: Int) throws -> BusinessRegistration {
    try BusinessRegistration.validate(nombre: "Negocio \(n)", email: "n\(n)@ejemplo.mx", telefono: "5512345678").get()
}

/// A temporary folder with a database path inside it.
func freshDatabasePath() throws -> (TemporaryDirectory, String) {
    let dir = try TemporaryDirectory("faro-store")
    return (dir, dir.file("data/faro/faro.sqlite3"))
}
