/// Where the content view's share menu can send a beacon's URL (docs/share.md).
public enum ShareTarget: String, Sendable, CaseIterable {
    case copyLink = "link"
    case email
    case whatsapp
    case telegram
    case facebook
    case x
    case linkedin

    /// The menu label (English gettext msgid; the UI translates it).
    public var label: String {
        switch self {
        case .copyLink: return "Copy link"
        case .email: return "E-mail"
        case .whatsapp: return "WhatsApp"
        case .telegram: return "Telegram"
        case .facebook: return "Facebook"
        case .x: return "X"
        case .linkedin: return "LinkedIn"
        }
    }
}

/// Builds the share links of the content view's share menu: each one carries the beacon's own URL (never with the
/// device id) percent-encoded as a query value, ready for the desktop's default handler.
public enum ShareLinks {
    /// The URL that is shared: the beacon's URL with any `imei` parameter removed.
    public static func sharedURL(_ url: String) -> String { DeviceIDURL.stripping(from: url) }

    /// The link for one target. `title` (the site's title or business) goes into the e-mail subject and the
    /// message text where the service takes one. `.copyLink` gives the shared URL itself.
    public static func link(for target: ShareTarget, url: String, title: String? = nil) -> String {
        let shared = sharedURL(url)
        let u = PercentEncoding.encodeComponent(shared)
        let titleText = title.map { $0.trimming(charactersIn: " \t\n\r") }.flatMap { $0.isEmpty ? nil : $0 }
        let message = titleText.map { "\($0) \(shared)" } ?? shared
        switch target {
        case .copyLink:
            return shared
        case .email:
            // RFC 6068: header values percent-encoded, spaces as %20 (never `+`), line breaks as %0D%0A.
            let subject = PercentEncoding.encodeComponent(titleText ?? shared)
            let body = PercentEncoding.encodeComponent(message)
            return "mailto:?subject=\(subject)&body=\(body)"
        case .whatsapp:
            return "https://wa.me/?text=" + PercentEncoding.encodeComponent(message)
        case .telegram:
            var link = "https://t.me/share/url?url=" + u
            if let titleText { link += "&text=" + PercentEncoding.encodeComponent(titleText) }
            return link
        case .facebook:
            return "https://www.facebook.com/sharer/sharer.php?u=" + u
        case .x:
            var link = "https://x.com/intent/tweet?url=" + u
            if let titleText { link += "&text=" + PercentEncoding.encodeComponent(titleText) }
            return link
        case .linkedin:
            return "https://www.linkedin.com/sharing/share-offsite/?url=" + u
        }
    }

    /// Every target's link, in menu order.
    public static func all(url: String, title: String? = nil) -> [(target: ShareTarget, link: String)] {
        ShareTarget.allCases.map { ($0, link(for: $0, url: url, title: title)) }
    }
}
