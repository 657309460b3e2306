#include "host/runtime/debugger_agent_options.hpp"

#include <charconv>
#include <fmt/format.h>

namespace scripthost {

namespace {

Result<std::uint16_t> checkedPort(std::int64_t port) {
    if (port < 1 || port > 65535)
        return fail(fmt::format("debugger port {} is out of range (1-65535)", port));
    return static_cast<std::uint16_t>(port);
}

} // namespace

Result<DebuggerAgentOptions> DebuggerAgentOptions::listenOn(std::int64_t port) {
    auto checked = checkedPort(port);
    if (!checked)
        return std::unexpected(checked.error());
    DebuggerAgentOptions options;
    options.mode = Mode::Listen;
    options.port = *checked;
    return options;
}

Result<DebuggerAgentOptions> DebuggerAgentOptions::connectTo(std::string_view hostAndPort) {
    const auto bad = [&](std::string_view why) {
        return fail(fmt::format("--debug-connect \"{}\": {} (expected HOST:PORT, e.g. "
                                "127.0.0.1:55555)",
                                hostAndPort, why));
    };
    const std::size_t colon = hostAndPort.find(':');
    if (colon == std::string_view::npos)
        return bad("no port");
    const std::string_view host = hostAndPort.substr(0, colon);
    const std::string_view portText = hostAndPort.substr(colon + 1);
    if (host.empty())
        return bad("no host");
    if (portText.find(':') != std::string_view::npos)
        return bad("more than one ':' (the agent takes no IPv6 address)");
    std::int64_t port = 0;
    const auto [end, error] = std::from_chars(portText.data(), portText.data() + portText.size(), port);
    if (portText.empty() || error != std::errc{} || end != portText.data() + portText.size())
        return bad("the port is not a number");
    auto checked = checkedPort(port);
    if (!checked)
        return bad(checked.error().message);
    DebuggerAgentOptions options;
    options.mode = Mode::Connect;
    options.host = std::string(host);
    options.port = *checked;
    return options;
}

std::string DebuggerAgentOptions::agentArgument() const {
    return fmt::format("--debugger-agent=transport=dt_socket,address={}:{},server={},suspend=n",
                       host, port, mode == Mode::Listen ? "y" : "n");
}

std::string DebuggerAgentOptions::describe() const {
    return fmt::format("{} {}:{}", mode == Mode::Listen ? "listening on" : "connecting to", host,
                       port);
}

} // namespace scripthost
