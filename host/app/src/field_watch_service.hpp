#pragma once
// FieldWatchService: the `watchFields` control command (host/control/PROTOCOL.md). Each client may
// watch a set of script fields; between frames the service reads them (FieldWatch), at most
// `hz` times a second, spreading a large watch over the frames of its period under a
// per-frame time budget; an encoder thread compares each sweep with what the client was
// last sent and sends only what changed, as one `fields` event to that client alone. A
// client that does not keep up is sent less often, never more than it can read: a sweep
// waits while the last one is still being encoded, and one that finds the client's outbox
// full is skipped (the next one still carries every change since the last one sent).

#include "control/control_server.hpp"
#include "control/protocol_error.hpp"
#include "host/engine/field_watch.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sys/types.h>

namespace scripthost {

class ScriptHost;

struct FieldWatchLimits {
    double maxHz = 10;                          ///< the most sweeps a second a client may ask
    std::size_t maxRows = 100'000;              ///< watched fields per client
    std::chrono::microseconds frameBudget{150}; ///< reading time per frame, all clients
    std::size_t maxUnsentBytes = 1024 * 1024;   ///< a client's outbox past this: skip a sweep
};

class FieldWatchService {
public:
    explicit FieldWatchService(control::ControlServer& server, FieldWatchLimits limits = {});
    /// Stops the encoder thread (what it has not sent is dropped).
    ~FieldWatchService();
    FieldWatchService(const FieldWatchService&) = delete;
    FieldWatchService& operator=(const FieldWatchService&) = delete;

    /// `watchFields`: replaces `client`'s watch with body["watch"] ([{"entity", "script",
    /// "fields"?}]) at body["hz"] (default and most: limits.maxHz); an empty list ends it.
    [[nodiscard]] control::CommandResult watch(control::ClientId client, const nlohmann::json& body,
                                               ScriptHost& host);

    /// Between frames: reads the due part of every client's sweep, within the frame budget,
    /// and hands each finished sweep to the encoder thread. Forgets clients that have gone.
    void afterFrame(ScriptHost& host);

    /// Clients with a watch, and the fields they watch in all.
    [[nodiscard]] std::size_t clientCount() const noexcept { return watches_.size(); }
    [[nodiscard]] std::size_t rowCount() const noexcept;
    /// The encoder thread's kernel id (0 until it has started): what it costs can be read
    /// (tools/bench inspector).
    [[nodiscard]] pid_t encoderThreadId() const noexcept;

private:
    struct ClientWatch;
    struct Encoder;

    control::ControlServer& server_;
    FieldWatchLimits limits_;
    std::unique_ptr<Encoder> encoder_;
    std::map<control::ClientId, std::unique_ptr<ClientWatch>> watches_;
    std::uint64_t nextWatchId_ = 1;
    std::chrono::steady_clock::time_point lastFrame_{};
};

} // namespace scripthost
