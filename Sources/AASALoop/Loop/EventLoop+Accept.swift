import AASASystem
import AASATransport
@preconcurrency import Glibc

extension EventLoop {
    /// Accepts until EAGAIN (the listener is edge-triggered), or its share of the turn, after
    /// which the loop comes back for the rest. At the loop's ceiling (`mayAccept`) it stops
    /// until a connection leaves; running out of descriptors or memory pauses it for 100 ms
    /// instead of ending the server (accept(2) ERRORS). Clients wait in the backlog meanwhile.
    func acceptConnections(from listener: Int32, secure: Bool, now: UInt64) {
        guard listener >= 0, acceptPausedUntil == 0 else { return }
        var peer = sockaddr_storage()
        for _ in 0..<settings.acceptsPerTurn {
            guard mayAccept() else { return }
            let result: IOResult<Int32>
            do {
                result = try Posix.accept(listener, peer: &peer)
            } catch {
                switch error.errno {
                case ECONNABORTED, EPROTO, EPERM:
                    continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // The limit may have been lowered under the running server (prlimit(1)).
                    if error.errno == EMFILE || error.errno == ENFILE { settings.descriptors?.refresh() }
                    acceptPausedUntil = now + 100_000_000
                    stopAccepting()
                    return
                case EINVAL, ENOTSOCK, EOPNOTSUPP:
                    // Not listening any more, for good: a passed socket that another holder
                    // shut down (shutdown(2) makes accept EINVAL).
                    loseListener(secure: secure, error)
                    return
                default:
                    return
                }
            }
            guard case .processed(let fd) = result else { return }
            // Only with a wider passed socket: one getsockname(2) per connection.
            if let scope = secure ? secureListenerScope : listenerScope,
                (try? Posix.localAddress(fd)).map(scope.admits) != true
            {
                Posix.close(fd)
                continue
            }
            makeRoom(secure: secure)
            adopt(fd, peer: peer, secure: secure, now: now)
        }
        acceptAgain = true
    }

    /// Drops a listener that will never accept again: out of the epoll set (it would report
    /// its hang-up at every wait) and closed; counted (`/readyz` fails, `/metrics` shows it)
    /// and reported to the server, which logs it once.
    func loseListener(secure: Bool, _ error: SystemError) {
        let fd = secure ? secureListener : listener
        guard fd >= 0 else { return }
        if listenersRegistered { epoll.remove(fd) }
        Posix.close(fd)
        if secure { secureListener = -1 } else { listener = -1 }
        statistics.noteListenerLost()
        control.listenerLost("the \(secure ? "HTTPS" : "HTTP") listener stopped accepting (\(error))")
    }

    func adopt(_ fd: Int32, peer: sockaddr_storage, secure: Bool, now: UInt64) {
        let connection = Connection(fd: fd, generation: nextGeneration, peer: peer)
        if secure {
            // The source always: the certificate loader shares its places by it, with or
            // without ACME's hooks (without, every client used to be source 0, one share).
            guard let certificates,
                let session = try? TLSSession(
                    certificates: certificates, hooks: handshakeHooks, fd: fd, source: ClientSource.key(peer))
            else {
                Posix.close(fd)
                return
            }
            connection.tls = session
            connection.phase = .handshaking
        }
        nextGeneration &+= 1
        if nextGeneration == 0 { nextGeneration = 1 }
        schedule(connection, secure ? .handshake : .keepAlive, now: now)
        if Int(fd) >= connections.count {
            connections += [Connection?](repeating: nil, count: max(Int(fd) + 1 - connections.count, connections.count))
        }
        connections[Int(fd)] = connection
        openConnections += 1
        // The request often arrives with the connection: serve it before registering, so a
        // one-request connection costs no epoll_ctl at all. Registering afterwards loses
        // nothing: epoll reports data that is already waiting when a socket is added.
        readAndServe(connection, now: now)
        guard connections[Int(fd)] === connection, !connection.registered else { return }
        do {
            try epoll.add(fd, events: Epoll.readable | Epoll.hangUp | Epoll.edgeTriggered, data: connection.eventData)
            connection.registered = true
        } catch {
            close(connection)
        }
    }
}
