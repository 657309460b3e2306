#pragma once
// ApiRequest: POST /api — one control request in the body, its reply as the response, on a
// control connection of its own (for curl and scripts: `curl -H "Authorization: Bearer
// TOKEN" -d '{"cmd":"status"}' http://127.0.0.1:PORT/api`).

#include "server_context.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <functional>
#include <string>

namespace scripthost::inspector {

/// The HTTP status and JSON body to answer with: 200 and the host's reply (which may itself
/// be an error reply), 503 host_unavailable when the host cannot be reached, 504 when it
/// did not answer within `timeout`.
using ApiDone = std::function<void(unsigned status, std::string body)>;

void startApiRequest(const boost::asio::any_io_executor& executor, const ServerContext& context,
                     std::string body, std::chrono::milliseconds timeout, ApiDone done);

} // namespace scripthost::inspector
