// `scripthost run`'s own options (addRunCommand, RunOptions::debuggerAgent): their defaults, the
// checks CLI11 makes on them, and the debugger agent they ask for. The project's options that
// `run` shares with `smoke` are tested in project_options_test.cpp.
#include "../../support/test_support.hpp"
#include "run_options.hpp"

#include <CLI/CLI.hpp>
#include <doctest/doctest.h>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

/// Parses `scripthost run --scripts <a temp folder> <args>`; the options, or the parse error's
/// message.
Result<RunOptions> parseRun(std::vector<std::string> args) {
    static const TempDir scripts("run-options-scripts");
    RunOptions options;
    CLI::App app;
    addRunCommand(app, options);
    args.insert(args.begin(), {"scripthost", "run", "--scripts", scripts.path().string()});
    std::vector<const char*> argv;
    for (const std::string& arg : args)
        argv.push_back(arg.c_str());
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::ParseError& e) {
        return fail(e.what());
    }
    return options;
}

} // namespace

TEST_CASE("run options: the defaults are a supervised, watched, paced run that saves its state "
          "every 5 s") {
    auto parsed = parseRun({});
    REQUIRE_MESSAGE(parsed, (parsed ? "" : parsed.error().message));
    CHECK(parsed->supervise);
    CHECK(parsed->watch);
    CHECK(parsed->prepareDomains);
    CHECK_FALSE(parsed->headless);
    CHECK_FALSE(parsed->resume);
    CHECK(parsed->fps == doctest::Approx(60.0));
    CHECK(parsed->frames == 0);
    CHECK(parsed->stateInterval == doctest::Approx(5.0));
    CHECK(parsed->crashLimit == 3);
    CHECK(parsed->logFormat == "text");
    auto agent = parsed->debuggerAgent();
    REQUIRE(agent);
    CHECK_FALSE(agent->has_value()); // no debugger unless asked for
}

TEST_CASE("run options: flags turn their defaults off and values are taken") {
    auto parsed = parseRun({"--no-supervise", "--no-watch", "--no-prepared-domain", "--headless",
                            "--frames", "120", "--fps", "0", "--crash-limit", "5", "--resume",
                            "--log-format", "json", "--state-interval", "0"});
    REQUIRE_MESSAGE(parsed, (parsed ? "" : parsed.error().message));
    CHECK_FALSE(parsed->supervise);
    CHECK_FALSE(parsed->watch);
    CHECK_FALSE(parsed->prepareDomains);
    CHECK(parsed->headless);
    CHECK(parsed->resume);
    CHECK(parsed->frames == 120);
    CHECK(parsed->fps == doctest::Approx(0.0));
    CHECK(parsed->crashLimit == 5);
    CHECK(parsed->logFormat == "json");
    CHECK(parsed->stateInterval == doctest::Approx(0.0));
}

TEST_CASE("run options: values out of range are refused with the option's name") {
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"--frames", "-1"}, {"--fps", "-5"}, {"--crash-limit", "0"},
          {"--log-format", "xml"}, {"--watchdog-grace-ms", "0"}, {"--state-interval", "-1"},
          {"--input", "/nonexistent/replay.jsonl"}}) {
        auto parsed = parseRun(bad);
        CHECK_FALSE_MESSAGE(parsed, bad[0]);
        if (!parsed)
            CHECK_MESSAGE(parsed.error().message.find(bad[0]) != std::string::npos,
                          parsed.error().message);
    }
}

TEST_CASE("run options: --game-build needs --game and --game-sources") {
    TempDir dir("run-options");
    auto alone = parseRun({"--game-build", "make"});
    REQUIRE_FALSE(alone);
    CHECK(alone.error().message.find("--game") != std::string::npos);
    writeFile(dir / "libgame.so", "");
    auto complete = parseRun({"--game-build", "make", "--game", (dir / "libgame.so").string(),
                              "--game-sources", dir.path().string()});
    REQUIRE_MESSAGE(complete, (complete ? "" : complete.error().message));
    CHECK(complete->gameBuild == "make");
    REQUIRE(complete->gameSources.size() == 1);
    CHECK(complete->gameSources[0] == dir.path());
}

TEST_CASE("run options: --debug listens on the default port or the one given, --debug-connect "
          "connects out, and the two exclude each other") {
    auto plain = parseRun({"--debug"});
    REQUIRE_MESSAGE(plain, (plain ? "" : plain.error().message));
    auto agent = plain->debuggerAgent();
    REQUIRE(agent);
    REQUIRE(agent->has_value());
    CHECK((*agent)->port == DebuggerAgentOptions::kDefaultPort);

    auto given = parseRun({"--debug", "40123"});
    REQUIRE(given);
    REQUIRE(given->debuggerAgent().value_or(std::nullopt).has_value());
    CHECK(given->debuggerAgent()->value().port == 40123);

    CHECK_FALSE(parseRun({"--debug", "70000"}));
    CHECK_FALSE(parseRun({"--debug-connect", "no-port-here"}));
    auto connect = parseRun({"--debug-connect", "127.0.0.1:40124"});
    REQUIRE_MESSAGE(connect, (connect ? "" : connect.error().message));
    REQUIRE(connect->debuggerAgent().value_or(std::nullopt).has_value());
    CHECK(connect->debuggerAgent()->value().port == 40124);

    CHECK_FALSE(parseRun({"--debug", "40125", "--debug-connect", "127.0.0.1:40126"}));
    // Set both without the command line (a config file could): debuggerAgent refuses them.
    RunOptions both;
    both.debugPort = 40125;
    both.debugConnect = "127.0.0.1:40126";
    auto refused = both.debuggerAgent();
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("exclude each other") != std::string::npos);
}
