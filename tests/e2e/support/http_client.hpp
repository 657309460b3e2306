#pragma once
// A blocking HTTP/1.1 client for the e2e tests (Boost.Beast): one request per connection,
// with a deadline.

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>

namespace scripthost::testing {

struct HttpResult {
    unsigned status = 0; ///< 0: nothing answered
    std::string body;
    std::string location;
};

inline HttpResult httpRequest(std::uint16_t port, const std::string& method,
                              const std::string& target,
                              const std::map<std::string, std::string>& headers = {},
                              const std::string& body = {}) {
    namespace asio = boost::asio;
    namespace beast = boost::beast;
    namespace http = beast::http;
    HttpResult result;
    asio::io_context io;
    beast::tcp_stream stream(io);
    stream.expires_after(std::chrono::seconds(15));
    beast::error_code ec;
    stream.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
    if (ec)
        return result;
    http::request<http::string_body> request{http::string_to_verb(method), target, 11};
    request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
    for (const auto& [name, value] : headers)
        request.set(name, value);
    request.body() = body;
    request.prepare_payload();
    http::write(stream, request, ec);
    if (ec)
        return result;
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(stream, buffer, response, ec);
    if (ec)
        return result;
    result.status = response.result_int();
    result.body = response.body();
    if (auto found = response.find(http::field::location); found != response.end())
        result.location = std::string(found->value());
    return result;
}

} // namespace scripthost::testing
