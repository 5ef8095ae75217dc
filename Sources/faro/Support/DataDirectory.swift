import FaroInstall

/// Where Faro's data files are (see `InstallLayout`), and the demo recording in them.
enum DataDirectory {
    static func locate() -> String? { InstallLayout.dataDirectory() }

    static func demoRecording() throws -> String {
        guard let dir = locate() else {
            throw CommandFailure(description: "cannot find Faro's data folder; set FARO_DATA_DIR to the data/ folder")
        }
        return dir + "/demo/walk.jsonl"
    }
}
