// UEngine.Debug's internal call (host/glue/src/debug_glue.cpp), run from C# compiled by the test
// in a real ScriptHost: each line a script logs reaches the host's log once, with its text and
// the level Log, LogWarning and LogError ask for; a level out of spdlog's range logs at info and
// a null message as an empty line, never a failure.
#include "../support/glue_test_support.hpp"

#include <mutex>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>
#include <utility>
#include <vector>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

using Line = std::pair<spdlog::level::level_enum, std::string>;

/// Keeps what the default logger writes that came from scripts ("[script] …").
class ScriptLines : public spdlog::sinks::base_sink<std::mutex> {
public:
    std::vector<Line> lines() {
        std::lock_guard lock(mutex_);
        return lines_;
    }

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        std::string text(msg.payload.data(), msg.payload.size());
        if (text.starts_with("[script] "))
            lines_.emplace_back(msg.level, text.substr(9));
    }
    void flush_() override {}

private:
    std::vector<Line> lines_;
};

/// Adds a ScriptLines sink to the default logger, at trace level. Done before the host (and
/// Mono's threads) start, and never undone: a logger's sinks are not to change while other
/// threads may log.
std::shared_ptr<ScriptLines> captureScriptLines() {
    auto sink = std::make_shared<ScriptLines>();
    spdlog::default_logger()->sinks().push_back(sink);
    spdlog::default_logger()->set_level(spdlog::level::trace);
    return sink;
}

const std::string kLogger = R"(
using System;
using UEngine;

public class Described
{
    public override string ToString() { return "described ✓"; }
}

public class Logger : UMonoScriptComponent
{
    [SerializeField] bool done;
    [SerializeField] string outcome = "";

    public override void Update(float deltaTime)
    {
        if (done) return;
        done = true;
        outcome = Probe.Outcome(() =>
        {
            Debug.Log("hello ✓ " + 42);
            Debug.LogWarning(7);
            Debug.LogError(null);
            Debug.Log(new Described());
            Debug.Log("line one\nline two");
            foreach (int level in new[] { 0, 5, 6, 99, -1 })
                Probe.Call(typeof(Debug), "Internal_Log", level, "level " + level);
            Probe.Call(typeof(Debug), "Internal_Log", 3, null);
        });
    }
}
)";

} // namespace

TEST_CASE("Debug glue: each logged line reaches the host's log once at its level, a level out of "
          "range at info and a null message as an empty line") {
    const auto log = captureScriptLines();
    GlueHost host("debug", kLogger);
    const ObjectId s = spawnScript(*host, "Logger");
    host->tick(0.016);
    host->tick(0.016); // logs nothing more
    CHECK(host.text(s, "outcome") == "ok");
    using enum spdlog::level::level_enum;
    const std::vector<Line> expected = {
        {info, "hello ✓ 42"},  {warn, "7"},          {err, "null"},
        {info, "described ✓"}, {info, "line one\nline two"},
        {trace, "level 0"},     {critical, "level 5"}, {info, "level 6"},
        {info, "level 99"},     {info, "level -1"},   {warn, ""},
    };
    CHECK(log->lines() == expected);
    CHECK(host->scriptFailureCount() == 0);
}
