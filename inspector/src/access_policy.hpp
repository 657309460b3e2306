#pragma once
// AccessPolicy: who may talk to the inspector. Every request must name the server as it is
// reached on loopback (Host), come from the inspector's own page or from no page at all
// (Origin), and show the token: in the URL (?token=…, what the printed URL carries), in the
// session cookie the server sets after that, or as "Authorization: Bearer …" (tools).
// Checked before anything else, so a refused request learns nothing about what is served.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace scripthost::inspector {

/// The parts of a request the policy looks at (absent headers are empty views).
struct RequestCredentials {
    std::string_view target;        ///< the request target: path and query
    std::string_view host;          ///< Host
    std::string_view origin;        ///< Origin (browsers send it on WebSocket and POST requests)
    std::string_view cookie;        ///< Cookie
    std::string_view authorization; ///< Authorization
    bool hasOrigin = false;
};

/// What the policy decided.
struct AccessDecision {
    bool allowed = false;
    std::string refusal; ///< why not, for the 403's body and the log (when !allowed)
    std::string path;    ///< the target without its query ("/" at least)
    bool tokenInQuery =
        false; ///< the token came in the URL: set the cookie (and drop it from the URL)
};

class AccessPolicy {
public:
    AccessPolicy(std::uint16_t port, std::string token);

    [[nodiscard]] AccessDecision decide(const RequestCredentials& request) const;

    /// The cookie that carries the token, e.g. "scripthost-inspector-7410". Browsers keep
    /// cookies per host, not per port, so two inspectors on one machine need two names.
    [[nodiscard]] const std::string& cookieName() const noexcept { return cookieName_; }
    /// The Set-Cookie value that stores the token (HttpOnly, SameSite=Strict, Path=/).
    [[nodiscard]] std::string sessionCookie() const;
    /// The origins the page is served from: http://127.0.0.1:PORT and http://localhost:PORT.
    [[nodiscard]] bool isOwnOrigin(std::string_view origin) const;
    [[nodiscard]] bool isOwnHost(std::string_view host) const;

private:
    std::uint16_t port_;
    std::string token_;
    std::string cookieName_;
    std::array<std::string, 2> ownHosts_;   ///< 127.0.0.1:PORT, localhost:PORT
    std::array<std::string, 2> ownOrigins_; ///< the same behind http://
};

/// The value of `name` in a query string ("a=1&token=x"), if present. No percent-decoding:
/// the values the inspector reads are hex.
[[nodiscard]] std::optional<std::string_view> queryValue(std::string_view query,
                                                         std::string_view name);
/// The value of cookie `name` in a Cookie header ("a=1; b=2"), if present.
[[nodiscard]] std::optional<std::string_view> cookieValue(std::string_view header,
                                                          std::string_view name);

} // namespace scripthost::inspector
