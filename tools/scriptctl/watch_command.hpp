#pragma once
// watchHost: `scriptctl watch` — subscribe and print events until Ctrl+C or the host goes.

#include "host_session.hpp"

#include <string>
#include <vector>

namespace scriptctl {

/// Subscribes to `topics` and prints each event (a block, or a JSON line with --json) as it
/// comes. Exit 0 on SIGINT/SIGTERM, 3 when the host closes the connection or cannot be
/// reached, 1 when it refuses the subscription.
[[nodiscard]] int watchHost(HostSession& session, const std::vector<std::string>& topics);

} // namespace scriptctl
