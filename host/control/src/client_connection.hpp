#pragma once
// ClientConnection: the server's state for one connected control client.

#include "control/line_splitter.hpp"
#include "control/request.hpp"
#include "outbox.hpp"
#include "posix/unique_fd.hpp"

#include <cstddef>
#include <functional>
#include <set>
#include <string>

namespace scripthost::control {

/// One connection. `fd` and `input` belong to the server thread alone; the rest is guarded by
/// the server's mutex (the main thread queues replies and events into `outbox`).
struct ClientConnection {
    ClientConnection(ClientId clientId, posix::UniqueFd socket, std::size_t maxLineBytes)
        : id(clientId), fd(std::move(socket)), input(maxLineBytes) {}

    ClientId id;
    posix::UniqueFd fd;
    LineSplitter input;

    Outbox outbox;
    std::set<std::string, std::less<>> topics; ///< what publish() sends it
    std::size_t outstanding = 0;   ///< requests queued for the main thread, not answered yet
    bool readClosed = false;       ///< the client shut down its writing side (EOF)
    bool closeWhenFlushed = false; ///< a protocol error was sent: close once it is out
    std::string dropReason;        ///< non-empty: close now, this is why
    bool dropIsWarning = false;    ///< log the drop as a warning (slow consumer)
};

} // namespace scripthost::control
