#pragma once
// WebSocketBridge: one browser tab's WebSocket joined to a connection of its own to the
// host's control socket. A message from the tab is sent as one request line; each line from
// the host is sent back as one message. One message is in flight each way at a time, so a
// flood waits on the socket instead of piling up here (the host's own limits then apply).
// When the host's socket closes, the tab gets {"event":"inspector","data":{"host":
// "disconnected"}}, requests meanwhile are answered with host_unavailable, and the bridge
// connects again every reconnectInterval; {"host":"connected"} says when it is back (a new
// connection: the tab subscribes again).

#include "server_context.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <memory>

namespace scripthost::inspector {

/// Takes over an accepted socket whose request asked for a WebSocket upgrade and passed
/// AccessPolicy; completes the handshake and runs until either side closes.
void startWebSocketBridge(boost::asio::ip::tcp::socket socket,
                          boost::beast::http::request<boost::beast::http::string_body> request,
                          ServerContext& context, SessionSlot slot);

} // namespace scripthost::inspector
