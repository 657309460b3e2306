#include "access_policy.hpp"

#include "inspector/access_token.hpp"

#include <array>
#include <fmt/format.h>

namespace scripthost::inspector {

namespace {

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

// Calls `visit(key, value)` for every `separator`-separated key=value pair of `list`;
// stops when it returns a value.
template <typename Visit>
std::optional<std::string_view> findPair(std::string_view list, char separator, Visit visit) {
    while (!list.empty()) {
        const std::size_t end = list.find(separator);
        const std::string_view pair = trim(list.substr(0, end));
        const std::size_t equals = pair.find('=');
        if (equals != std::string_view::npos) {
            if (auto found = visit(pair.substr(0, equals), pair.substr(equals + 1)))
                return found;
        }
        if (end == std::string_view::npos)
            break;
        list.remove_prefix(end + 1);
    }
    return std::nullopt;
}

std::optional<std::string_view> lookup(std::string_view list, char separator,
                                       std::string_view name) {
    return findPair(
        list, separator,
        [name](std::string_view key, std::string_view value) -> std::optional<std::string_view> {
            if (key == name)
                return value;
            return std::nullopt;
        });
}

} // namespace

std::optional<std::string_view> queryValue(std::string_view query, std::string_view name) {
    return lookup(query, '&', name);
}

std::optional<std::string_view> cookieValue(std::string_view header, std::string_view name) {
    return lookup(header, ';', name);
}

AccessPolicy::AccessPolicy(std::uint16_t port, std::string token)
    : port_(port), token_(std::move(token)),
      cookieName_(fmt::format("scripthost-inspector-{}", port)),
      ownHosts_{fmt::format("127.0.0.1:{}", port), fmt::format("localhost:{}", port)},
      ownOrigins_{"http://" + ownHosts_[0], "http://" + ownHosts_[1]} {}

std::string AccessPolicy::sessionCookie() const {
    return fmt::format("{}={}; Path=/; HttpOnly; SameSite=Strict", cookieName_, token_);
}

bool AccessPolicy::isOwnHost(std::string_view host) const {
    return host == ownHosts_[0] || host == ownHosts_[1];
}

bool AccessPolicy::isOwnOrigin(std::string_view origin) const {
    return origin == ownOrigins_[0] || origin == ownOrigins_[1];
}

AccessDecision AccessPolicy::decide(const RequestCredentials& request) const {
    AccessDecision decision;
    const std::size_t question = request.target.find('?');
    decision.path = std::string(request.target.substr(0, question));
    if (decision.path.empty())
        decision.path = "/";
    const std::string_view query = question == std::string_view::npos
                                       ? std::string_view()
                                       : request.target.substr(question + 1);

    // DNS rebinding: a page of evil.example whose name now resolves to 127.0.0.1 still says
    // "Host: evil.example".
    if (!isOwnHost(request.host)) {
        decision.refusal =
            fmt::format("Host '{}' is not this inspector (127.0.0.1:{})", request.host, port_);
        return decision;
    }
    // Another page in the same browser: its requests carry its own Origin.
    if (request.hasOrigin && !isOwnOrigin(request.origin)) {
        decision.refusal = fmt::format("Origin '{}' may not use this inspector", request.origin);
        return decision;
    }
    if (auto given = queryValue(query, "token"); given && tokensEqual(*given, token_)) {
        decision.allowed = true;
        decision.tokenInQuery = true;
        return decision;
    }
    if (auto given = cookieValue(request.cookie, cookieName_);
        given && tokensEqual(*given, token_)) {
        decision.allowed = true;
        return decision;
    }
    constexpr std::string_view kBearer = "Bearer ";
    if (request.authorization.starts_with(kBearer) &&
        tokensEqual(trim(request.authorization.substr(kBearer.size())), token_)) {
        decision.allowed = true;
        return decision;
    }
    decision.refusal = "no valid token: open the URL the host printed "
                       "(`scriptctl inspect --url` prints it again)";
    return decision;
}

} // namespace scripthost::inspector
