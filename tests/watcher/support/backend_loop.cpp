#include "support/backend_loop.hpp"

#include "support/temp_folder.hpp"
#include "support/watch_helpers.hpp"

#include <stdexcept>

namespace scripthost::watcher::test {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

posix::WakeSignal makeWakeSignal() {
    auto wake = posix::WakeSignal::create();
    if (!wake) {
        throw std::runtime_error("cannot create an eventfd: " + wake.error().message());
    }
    return std::move(*wake);
}

} // namespace

BackendLoop::BackendLoop(detail::FileIndex initial)
    : coalescer_(std::move(initial), loopQuietWindow, std::chrono::milliseconds{1000}),
      wake_(makeWakeSignal()),
      context_{
          .coalescer = coalescer_,
          // As SourceWatcher: an empty set is dropped unless it reports a rescan.
          .publish =
              [this](ChangeSet changes) {
                  if (!changes.empty() || changes.rescanned) {
                      queue_.push(std::move(changes));
                  }
              },
          .wake = wake_,
          .rescanRequested = rescanRequested_,
          .holding = holding_,
          .hooks = hooks,
          .stop = stopSource_.get_token(),
      },
      finished_(done_.get_future()) {}

BackendLoop::~BackendLoop() {
    stopSource_.request_stop();
    wake_.notify();
}

void BackendLoop::start(std::function<void(detail::LoopContext&)> run) {
    thread_ = std::jthread([this, run = std::move(run)] {
        run(context_);
        done_.set_value();
    });
}

bool BackendLoop::finished() {
    return finished_.wait_for(arrivalTimeout) == std::future_status::ready;
}

bool BackendLoop::stop() {
    stopSource_.request_stop();
    wake_.notify();
    return finished();
}

void BackendLoop::requestRescan() {
    rescanRequested_.store(true);
    wake_.notify();
}

std::optional<ChangeSet> BackendLoop::next() {
    return queue_.popUntil(Clock::now() + arrivalTimeout);
}

ChangeSet BackendLoop::awaitSet(const ChangeSet& expected) {
    ChangeSet all;
    const auto deadline = Clock::now() + arrivalTimeout;
    while (!(all == expected)) {
        auto set = queue_.popUntil(deadline);
        if (!set) {
            break;
        }
        all.mergeLater(*set);
    }
    return all;
}

ChangeSet changes(std::vector<fs::path> added, std::vector<fs::path> modified,
                  std::vector<fs::path> removed, bool rescan) {
    ChangeSet set;
    set.added = std::move(added);
    set.modified = std::move(modified);
    set.removed = std::move(removed);
    set.rescanned = rescan;
    return set;
}

void putFile(const fs::path& file, std::string_view content) {
    const fs::path staging = fs::path(file).concat(".tmp");
    writeFile(staging, content);
    fs::rename(staging, file);
}

} // namespace scripthost::watcher::test
