#pragma once
// HttpSession: one accepted connection. It reads requests, lets AccessPolicy refuse them
// (403), and serves the page's files, POST /api, or hands a WebSocket upgrade on /ws to
// WebSocketBridge. Requests larger than the limits get 413/431 and the connection closes.

#include "server_context.hpp"

#include <boost/asio/ip/tcp.hpp>

namespace scripthost::inspector {

void startHttpSession(boost::asio::ip::tcp::socket socket, ServerContext& context);

} // namespace scripthost::inspector
