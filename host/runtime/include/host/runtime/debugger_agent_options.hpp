#pragma once
// DebuggerAgentOptions: how Mono's soft debugger agent meets its client (docs/MONO.md §11).

#include "scripthost/game/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace scripthost {

/// Where the soft debugger agent listens or connects. The agent never stops the program at
/// start (suspend=n): the game loop runs until a client breaks into it.
struct DebuggerAgentOptions {
    /// Listen: the agent waits on 127.0.0.1:port for an IDE that attaches (server=y).
    /// Connect: the agent connects out to a client already waiting there (server=n), as
    /// sdb's `listen` does.
    enum class Mode { Listen, Connect };

    /// The port `scripthost run --debug` listens on when none is given.
    static constexpr int kDefaultPort = 55555;

    Mode mode = Mode::Listen;
    std::string host = "127.0.0.1";
    std::uint16_t port = kDefaultPort;

    /// Listen on loopback only; fails for a port outside 1..65535.
    [[nodiscard]] static Result<DebuggerAgentOptions> listenOn(std::int64_t port);
    /// Connect to `HOST:PORT`: a host name or an IPv4 address (the agent splits the address
    /// at its first colon, so an IPv6 address cannot be given).
    [[nodiscard]] static Result<DebuggerAgentOptions> connectTo(std::string_view hostAndPort);

    /// The option Mono's mono_jit_parse_options takes:
    /// `--debugger-agent=transport=dt_socket,address=HOST:PORT,server=y|n,suspend=n`.
    [[nodiscard]] std::string agentArgument() const;
    /// "listening on 127.0.0.1:55555" / "connecting to 127.0.0.1:4711", for the log.
    [[nodiscard]] std::string describe() const;
};

} // namespace scripthost
