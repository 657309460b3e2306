#pragma once
// Driving a real scripthost through its control socket from a test: connect once it serves,
// call and require success, read a field. Every wait has a deadline.

#include "control/control_client.hpp"
#include "host_process.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace scripthost::testing {

using namespace std::chrono_literals;

constexpr auto kStartDeadline = std::chrono::seconds(60);
/// A hang detector, not a speed check: a host starved of CPU (tests beside a build) answers
/// its first request only after its first build and frame (15 s timed out once in 5 runs of
/// ctest -j3 at nice 19 beside a CI build).
constexpr auto kCallTimeout = std::chrono::milliseconds(60000);

template <typename T> std::string errorOf(const T& result) {
    return result.has_value() ? std::string() : result.error().message;
}

/// Connects once the host serves its socket.
inline control::ControlClient connectTo(const std::filesystem::path& socket, HostProcess& host) {
    REQUIRE_MESSAGE(waitUntil([&] { return std::filesystem::exists(socket) || !host.running(); },
                              kStartDeadline),
                    host.output());
    auto client = control::ControlClient::connect(socket, 5s);
    const std::string why = errorOf(client) + "\n" + host.output();
    REQUIRE_MESSAGE(client.has_value(), why);
    return std::move(*client);
}

inline nlohmann::json callOk(control::ControlClient& client, std::string_view cmd,
                             const nlohmann::json& args = nlohmann::json::object()) {
    auto reply = client.call(cmd, args, kCallTimeout);
    const std::string why = errorOf(reply);
    REQUIRE_MESSAGE(reply.has_value(), why);
    REQUIRE_MESSAGE(reply->value("ok", false), reply->dump());
    return (*reply)["result"];
}

/// The data of the next `reload` event (the client subscribed to "reload") whose report text
/// mentions `mentioning` (any report when empty), within `deadline`; fails the test with the
/// host's output when none comes.
inline nlohmann::json nextReloadReport(control::ControlClient& events, HostProcess& host,
                                       std::chrono::milliseconds deadline,
                                       const std::string& mentioning = "") {
    nlohmann::json report;
    const bool seen = waitUntil(
        [&] {
            auto event = events.next(std::chrono::milliseconds(500));
            REQUIRE_MESSAGE(event.has_value(), errorOf(event));
            if (*event && (**event)["event"] == "reload" &&
                (**event)["data"].value("text", "").find(mentioning) != std::string::npos)
                report = (**event)["data"];
            return !report.is_null();
        },
        deadline);
    REQUIRE_MESSAGE(seen, host.output());
    return report;
}

inline nlohmann::json fieldValue(control::ControlClient& client, const std::string& entity,
                                 const std::string& script, const std::string& field) {
    return callOk(client, "get",
                  {{"entity", entity}, {"script", script}, {"field", field}})["value"];
}

} // namespace scripthost::testing
