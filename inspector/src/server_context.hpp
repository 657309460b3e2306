#pragma once
// What every connection of one InspectorServer shares. Used on the server's one thread only.

#include "access_policy.hpp"
#include "page_files.hpp"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>

namespace scripthost::inspector {

struct ServerContext {
    AccessPolicy policy;
    PageFiles page;
    std::filesystem::path controlSocket;
    std::size_t maxMessageBytes = 0;
    std::size_t maxSessions = 0;
    std::chrono::milliseconds reconnectInterval{250};
    std::string contentSecurityPolicy; ///< the page may load and connect to this server only
    std::size_t sessions = 0;          ///< open connections (SessionSlot counts them)
};

/// One open connection's place in ServerContext::sessions: taken when it is accepted, given
/// back when the last object that holds it goes. Move-only.
class SessionSlot {
public:
    explicit SessionSlot(ServerContext& context) noexcept : context_(&context) {
        ++context_->sessions;
    }
    ~SessionSlot() {
        if (context_ != nullptr)
            --context_->sessions;
    }
    SessionSlot(SessionSlot&& other) noexcept : context_(std::exchange(other.context_, nullptr)) {}
    SessionSlot& operator=(SessionSlot&&) = delete;
    SessionSlot(const SessionSlot&) = delete;
    SessionSlot& operator=(const SessionSlot&) = delete;

private:
    ServerContext* context_;
};

} // namespace scripthost::inspector
