// AccessPolicy: Host, Origin and token decide who may use the inspector.
#include "access_policy.hpp"

#include <doctest/doctest.h>

using namespace scripthost::inspector;

namespace {
const std::string kToken(64, 'a');
const std::string kOther(64, 'b');

RequestCredentials credentials(std::string_view target, std::string_view host = "127.0.0.1:7410") {
    RequestCredentials c;
    c.target = target;
    c.host = host;
    return c;
}
} // namespace

TEST_CASE("AccessPolicy: the token in the URL, the cookie or a bearer header lets a request in") {
    const AccessPolicy policy(7410, kToken);
    const std::string withToken = "/?token=" + kToken;
    const AccessDecision byUrl = policy.decide(credentials(withToken));
    CHECK(byUrl.allowed);
    CHECK(byUrl.tokenInQuery);
    CHECK(byUrl.path == "/");

    const std::string cookie = "theme=dark; scripthost-inspector-7410=" + kToken + "; x=1";
    RequestCredentials byCookie = credentials("/inspector.js");
    byCookie.cookie = cookie;
    const AccessDecision cookieDecision = policy.decide(byCookie);
    CHECK(cookieDecision.allowed);
    CHECK_FALSE(cookieDecision.tokenInQuery);
    CHECK(cookieDecision.path == "/inspector.js");

    const std::string bearer = "Bearer " + kToken;
    RequestCredentials byHeader = credentials("/api");
    byHeader.authorization = bearer;
    CHECK(policy.decide(byHeader).allowed);
}

TEST_CASE(
    "AccessPolicy: no token, a wrong one, or another port's cookie is refused with a reason") {
    const AccessPolicy policy(7410, kToken);
    const AccessDecision none = policy.decide(credentials("/"));
    CHECK_FALSE(none.allowed);
    CHECK(none.refusal.find("token") != std::string::npos);

    const std::string wrongUrl = "/?token=" + kOther;
    CHECK_FALSE(policy.decide(credentials(wrongUrl)).allowed);
    const std::string shortUrl = "/?token=" + kToken.substr(0, 63);
    CHECK_FALSE(policy.decide(credentials(shortUrl)).allowed);

    // Cookies are per host, not per port: another inspector's cookie is not this one's.
    const std::string otherPort = "scripthost-inspector-7411=" + kToken;
    RequestCredentials c = credentials("/");
    c.cookie = otherPort;
    CHECK_FALSE(policy.decide(c).allowed);
    CHECK(policy.cookieName() == "scripthost-inspector-7410");
}

TEST_CASE(
    "AccessPolicy: a Host other than 127.0.0.1 or localhost on its port is refused, token or not") {
    const AccessPolicy policy(7410, kToken);
    const std::string target = "/?token=" + kToken;
    CHECK(policy.decide(credentials(target, "localhost:7410")).allowed);
    for (const char* host : {"evil.example", "evil.example:7410", "127.0.0.1", "127.0.0.1:80",
                             "localhost:7411", "", "0.0.0.0:7410"}) {
        CAPTURE(host);
        const AccessDecision decision = policy.decide(credentials(target, host));
        CHECK_FALSE(decision.allowed);
        CHECK(decision.refusal.find("Host") != std::string::npos);
    }
}

TEST_CASE(
    "AccessPolicy: an Origin other than the page's own is refused, no Origin at all is a tool") {
    const AccessPolicy policy(7410, kToken);
    const std::string target = "/ws?token=" + kToken;
    RequestCredentials c = credentials(target);
    c.hasOrigin = true;
    c.origin = "http://127.0.0.1:7410";
    CHECK(policy.decide(c).allowed);
    c.origin = "http://localhost:7410";
    CHECK(policy.decide(c).allowed);
    for (const char* origin : {"https://evil.example", "http://127.0.0.1:7411", "null",
                               "http://127.0.0.1:7410.evil.example", ""}) {
        CAPTURE(origin);
        c.origin = origin;
        const AccessDecision decision = policy.decide(c);
        CHECK_FALSE(decision.allowed);
        CHECK(decision.refusal.find("Origin") != std::string::npos);
    }
    c.hasOrigin = false;
    CHECK(policy.decide(c).allowed);
}

TEST_CASE("AccessPolicy: the session cookie is HttpOnly and SameSite=Strict") {
    const AccessPolicy policy(7410, kToken);
    const std::string cookie = policy.sessionCookie();
    CHECK(cookie.starts_with("scripthost-inspector-7410=" + kToken + ";"));
    CHECK(cookie.find("HttpOnly") != std::string::npos);
    CHECK(cookie.find("SameSite=Strict") != std::string::npos);
    CHECK(cookie.find("Path=/") != std::string::npos);
}

TEST_CASE("queryValue and cookieValue: find a named value among pairs, or nothing") {
    CHECK(queryValue("a=1&token=xyz&b=2", "token") == std::optional<std::string_view>("xyz"));
    CHECK(queryValue("tokens=1&token=", "token") == std::optional<std::string_view>(""));
    CHECK_FALSE(queryValue("atoken=1&b", "token").has_value());
    CHECK_FALSE(queryValue("", "token").has_value());
    CHECK(cookieValue("a=1;  b = 2 ; c=3", "c") == std::optional<std::string_view>("3"));
    CHECK(cookieValue("a=1; b=x=y", "b") == std::optional<std::string_view>("x=y"));
    CHECK_FALSE(cookieValue("ab=1", "b").has_value());
}
