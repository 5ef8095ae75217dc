import FaroInstall

/// This install's application id (`AppIdentity`): what the window registers as, and the settings schema every
/// command reads. A damaged `share/faro/app-id` is said on stderr, and the standard id is used.
enum InstalledAppID {
    static func resolve() -> String {
        switch AppIdentity.resolve(dataDirectory: InstallLayout.dataDirectory()) {
        case .success(let id): return id
        case .failure(let error):
            Output.error("faro: \(error); using \(AppIdentity.standard)")
            return AppIdentity.standard
        }
    }
}
