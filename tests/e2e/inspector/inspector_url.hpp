#pragma once
// What the inspector e2e tests share: the URL a host prints, taken apart, and the script
// their hosts run.

#include <cstdint>
#include <doctest/doctest.h>
#include <regex>
#include <string>

namespace scripthost::testing {

/// http://127.0.0.1:PORT/?token=TOKEN, taken apart.
struct Url {
    std::uint16_t port = 0;
    std::string token;
};

/// Fails the test unless `url` is an inspector URL (127.0.0.1, a port, a 64-hex-digit token).
inline Url parseUrl(const std::string& url) {
    std::smatch match;
    const bool matched = std::regex_match(
        url, match, std::regex(R"(http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{64}))"));
    REQUIRE_MESSAGE(matched, url);
    return {static_cast<std::uint16_t>(std::stoi(match[1])), match[2]};
}

/// A script that changes a field every frame.
inline constexpr const char* kCounter = "using UEngine;\n"
                                        "public class Counter : UMonoScriptComponent {\n"
                                        "  [SerializeField] int ticks;\n"
                                        "  public override void Update(float dt) { ticks += 1; }\n"
                                        "}\n";

} // namespace scripthost::testing
