internal import CSoup
import FoundationEssentials
import Glibc

/// GLib listens with a backlog of 10 connections; a client that opens more at once (Faro's "Guardar" fetches a
/// page's resources over up to 32 connections) then sees SYNs dropped and a one-second retransmission stall. This
/// raises the backlog of every listening socket of a SoupServer to SOMAXCONN (Linux accepts a second `listen`).
enum ListenBacklog {
    static func widen(_ server: UnsafeMutablePointer<SoupServer>) {
        let listeners = soup_server_get_listeners(server)
        var node = listeners
        while let current = node {
            if let socket = current.pointee.data {
                _ = Glibc.listen(g_socket_get_fd(socket.assumingMemoryBound(to: GSocket.self)), SOMAXCONN)
            }
            node = current.pointee.next
        }
        g_slist_free(listeners)
    }
}
