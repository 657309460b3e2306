// CompileServerProcess on its own (no WarmCompiler): spawning the server with its arguments
// and environment, the READY handshake, BUILD and SETTLE requests and their replies with the
// real server under mono, and with fake servers (shell scripts) every way a server can fail:
// refusing to start, exiting, being killed, hanging, answering garbage; and stopping it.
#include "compile_server_process.hpp"
#include "compiler_bridge/cold_compiler.hpp"
#include "compiler_bridge/warm_compiler.hpp"
#include "compiler_test_support.hpp"
#include "server_protocol.hpp"

#include <cerrno>
#include <csignal>
#include <doctest/doctest.h>
#include <optional>

using namespace scripthost::compiler;
using namespace scripthost::compiler::detail;
using namespace scripthost::testing;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

/// Room for mono to start and JIT mcs on a loaded machine.
constexpr std::chrono::seconds patience{60};

/// The real server under mono, without the warm-up build unless asked for.
ServerCommand realServer(bool prepareReferences = true) {
    ServerCommand command;
    command.mono = "/usr/bin/mono";
    command.server = defaultCompileServerPath();
    command.mcsAssembly = "/usr/lib/mono/4.5/mcs.exe";
    command.warmUp = false;
    command.prepareReferences = prepareReferences;
    return command;
}

/// A fake server: `body` run by /bin/sh, which gets the server's arguments.
ServerCommand fakeServer(const fs::path& dir, const std::string& body) {
    ServerCommand command;
    command.mono = "/bin/sh";
    command.server = writeScript(dir / "fake-server", body);
    command.mcsAssembly = "/opt/fake/mcs.exe";
    command.warmUp = false;
    return command;
}

/// The shell line announcing the protocol version we speak.
std::string readyLine() {
    return "echo 'READY " + std::to_string(protocol::version) + " fake'\n";
}

/// Shell lines reading requests without ever answering one, until QUIT.
const std::string idle = "while IFS= read -r l; do [ \"$l\" = QUIT ] && exit 0; done\n";

std::unique_ptr<CompileServerProcess> spawnOrFail(const ServerCommand& command) {
    auto spawned = CompileServerProcess::spawn(command);
    REQUIRE_MESSAGE(spawned.has_value(), (spawned ? std::string() : spawned.error()));
    return std::move(*spawned);
}

/// Spawns `command` and waits for its READY, failing the test when either fails.
std::unique_ptr<CompileServerProcess> readyOrFail(const ServerCommand& command) {
    auto server = spawnOrFail(command);
    const auto ready = server->waitReady(Clock::now() + patience);
    REQUIRE_MESSAGE(ready.has_value(), (ready ? std::string() : ready.error()));
    return server;
}

/// The error waitReady() gives for a fake server running `body`.
std::string startError(const fs::path& dir, const std::string& body) {
    auto server = spawnOrFail(fakeServer(dir, body));
    const auto ready = server->waitReady(Clock::now() + patience);
    REQUIRE_FALSE(ready.has_value());
    return ready.error();
}

/// The error build() gives for a ready fake server that answers with `reply` (shell lines
/// run once the BUILD header is read; $id holds the request's id).
std::string buildError(const fs::path& dir, const std::string& reply) {
    auto server = readyOrFail(fakeServer(dir, readyLine() +
                                                  "while read -r cmd id argc; do\n"
                                                  "  [ \"$cmd\" = QUIT ] && exit 0\n" +
                                                  reply + "done\n"));
    const auto reply_ = server->build({"A.cs"}, Clock::now() + patience, {});
    REQUIRE_FALSE(reply_.has_value());
    return reply_.error();
}

/// Is there still a process (or a zombie) with this pid?
bool processExists(int pid) {
    return ::kill(pid, 0) == 0 || errno != ESRCH;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("compile server process: the real server builds a library and reports mcs errors") {
    TempDir dir("server-process");
    fs::create_directories(dir / "out");
    writeFile(dir / "Good.cs", "public class Good { public int F() { return 1; } }\n");
    writeFile(dir / "Bad.cs", "public class Bad { public int F() { return missing; } }\n");
    auto server = readyOrFail(realServer());
    CHECK(processExists(server->pid()));

    int sent = 0;
    const auto built = server->build(
        ColdCompiler::arguments(libraryRequest(dir.path(), {dir / "Good.cs"}, "Good")),
        Clock::now() + patience, [&] { ++sent; });
    REQUIRE_MESSAGE(built.has_value(), (built ? std::string() : built.error()));
    CHECK(built->status == 0);
    CHECK(sent == 1);
    CHECK(fileContains(dir / "out/Good.dll", "Good"));

    const auto failed =
        server->build(ColdCompiler::arguments(libraryRequest(dir.path(), {dir / "Bad.cs"}, "Bad")),
                      Clock::now() + patience, {});
    REQUIRE_MESSAGE(failed.has_value(), (failed ? std::string() : failed.error()));
    CHECK(failed->status == 1);
    CHECK(contains(failed->output, "Bad.cs(1,"));
    CHECK(contains(failed->output, "error CS0103: The name `missing'"));
    CHECK_FALSE(fs::exists(dir / "out/Bad.dll"));
}

TEST_CASE("compile server process: settle() tells whether the next build uses prepared "
          "references") {
    TempDir dir("server-process");
    fs::create_directories(dir / "out");
    writeFile(dir / "A.cs", "public class A { public System.Collections.Generic.List<int> L; }\n");
    const auto args = ColdCompiler::arguments(libraryRequest(dir.path(), {dir / "A.cs"}, "A"));
    for (const bool prepare : {true, false}) {
        CAPTURE(prepare);
        auto server = readyOrFail(realServer(prepare));
        const auto first = server->build(args, Clock::now() + patience, {});
        REQUIRE_MESSAGE(first.has_value(), (first ? std::string() : first.error()));
        CHECK(first->status == 0);
        CHECK_FALSE(first->referencesPrepared); // nothing was known before the first build

        const auto settled = server->settle(Clock::now() + patience);
        REQUIRE_MESSAGE(settled.has_value(), (settled ? std::string() : settled.error()));
        CHECK(*settled == prepare);
        const auto second = server->build(args, Clock::now() + patience, {});
        REQUIRE_MESSAGE(second.has_value(), (second ? std::string() : second.error()));
        CHECK(second->status == 0);
        CHECK(second->referencesPrepared == prepare);
    }
}

TEST_CASE("compile server process: spawn() passes the mcs path, the flags and the GC "
          "parameters") {
    TempDir dir("server-process");
    const std::string body = "echo \"$@\" > \"$(dirname \"$0\")/args\"\n"
                             "echo \"${MONO_GC_PARAMS-unset}\" > \"$(dirname \"$0\")/gc\"\n" +
                             readyLine() + idle;
    ServerCommand command = fakeServer(dir.path(), body);
    command.gcParams = "nursery-size=16m";
    {
        const ScopedEnv noGcParams("MONO_GC_PARAMS", nullptr);
        auto server = readyOrFail(command); // the script wrote both files before READY
        CHECK(readFile(dir / "args") == "--mcs=/opt/fake/mcs.exe\n");
        CHECK(readFile(dir / "gc") == "nursery-size=16m\n");
    }
    command.warmUp = true;
    command.prepareReferences = false;
    {
        const ScopedEnv exported("MONO_GC_PARAMS", "nursery-size=8m");
        auto server = readyOrFail(command);
        CHECK(readFile(dir / "args") == "--mcs=/opt/fake/mcs.exe --warmup --no-prepare\n");
        CHECK(readFile(dir / "gc") == "nursery-size=8m\n"); // the exported value wins
    }
    command.gcParams.clear();
    {
        const ScopedEnv noGcParams("MONO_GC_PARAMS", nullptr);
        auto server = readyOrFail(command);
        CHECK(readFile(dir / "gc") == "unset\n");
    }
}

TEST_CASE("compile server process: a request carries the working folder and escaped arguments "
          "and its reply the output") {
    TempDir dir("server-process");
    // Echoes the request back as output lines, escaped as they came, and ends it with its id.
    const std::string echo = readyLine() +
                             "while read -r cmd id argc; do\n"
                             "  [ \"$cmd\" = QUIT ] && exit 0\n"
                             "  IFS= read -r cwd; printf '| cwd=%s\\n' \"$cwd\"\n"
                             "  i=0; while [ $i -lt $argc ]; do\n"
                             "    IFS= read -r arg; printf '| %s\\n' \"$arg\"; i=$((i+1))\n"
                             "  done\n"
                             "  echo \"END $id $argc 5 prepared\"\n"
                             "done\n";
    auto server = readyOrFail(fakeServer(dir.path(), echo));
    const std::vector<std::string> args{"-out:/a b/x.dll", "two\nlines", "back\\slash"};
    const auto first = server->build(args, Clock::now() + patience, {});
    REQUIRE_MESSAGE(first.has_value(), (first ? std::string() : first.error()));
    CHECK(first->output ==
          "cwd=" + fs::current_path().string() + "\n-out:/a b/x.dll\ntwo\nlines\nback\\slash\n");
    CHECK(first->status == 3);
    CHECK(first->referencesPrepared);

    // The next request has the next id (the fake answers with the id it was sent).
    const auto second = server->build({"B.cs"}, Clock::now() + patience, {});
    REQUIRE_MESSAGE(second.has_value(), (second ? std::string() : second.error()));
    CHECK(second->output == "cwd=" + fs::current_path().string() + "\nB.cs\n");
    CHECK(second->status == 1);
}

TEST_CASE("compile server process: a server that fails to start says why") {
    TempDir dir("server-process");
    CHECK(startError(dir.path(), "echo 'FATAL cannot load mcs.exe'\n") ==
          "failed to start: cannot load mcs.exe");
    CHECK(startError(dir.path(), "echo 'READY 1 old'\n" + idle) ==
          "speaks protocol 1, expected " + std::to_string(protocol::version));
    CHECK(startError(dir.path(), "echo 'Unhandled Exception'\n" + idle) ==
          "sent garbage instead of READY: Unhandled Exception");

    const std::string exited = startError(dir.path(), "echo 'no mcs here' >&2\nexit 3\n");
    CHECK(exited.starts_with("did not start: exited"));
    CHECK(contains(exited, "it said: no mcs here"));

    ServerCommand missing = fakeServer(dir.path(), readyLine());
    missing.mono = dir / "no-such-mono";
    const auto spawned = CompileServerProcess::spawn(missing);
    REQUIRE_FALSE(spawned.has_value());
    CHECK(spawned.error().starts_with("cannot start " + missing.mono.string()));
}

TEST_CASE("compile server process: a wrong id, FATAL or garbage in a reply fails the build") {
    TempDir dir("server-process");
    CHECK(buildError(dir.path(), "echo 'END 99 0 1 imported'\n") ==
          "answered request 99 instead of 1");
    CHECK(buildError(dir.path(), "echo '| working'\necho 'FATAL out of memory'\n") ==
          "gave up: out of memory");
    CHECK(buildError(dir.path(), "echo 'END 1 0'\n") == "sent garbage: END 1 0");
}

TEST_CASE("compile server process: a server that does not answer fails the build at the "
          "deadline") {
    TempDir dir("server-process");
    auto server = readyOrFail(fakeServer(dir.path(), readyLine() + idle));
    bool sent = false;
    const auto reply = server->build({"A.cs"}, Clock::now() + std::chrono::milliseconds(200),
                                     [&] { sent = true; });
    REQUIRE_FALSE(reply.has_value());
    CHECK(reply.error() == "did not answer in time");
    CHECK(sent); // the request was written: it is the answer that did not come
}

TEST_CASE("compile server process: a server killed mid-request is reported as exited and "
          "reaped") {
    TempDir dir("server-process");
    // It reads the request and never answers: the kill comes before any reply can.
    auto server = readyOrFail(fakeServer(dir.path(), readyLine() + idle));
    const int pid = server->pid();
    const auto reply =
        server->build({"A.cs"}, Clock::now() + patience, [&] { ::kill(pid, SIGKILL); });
    REQUIRE_FALSE(reply.has_value());
    CHECK(reply.error().starts_with("exited"));
    server.reset();
    CHECK_FALSE(processExists(pid)); // not even a zombie is left
}

TEST_CASE("compile server process: kill() ends the server at once and later requests fail") {
    TempDir dir("server-process");
    auto server = readyOrFail(fakeServer(dir.path(), readyLine() + idle));
    const int pid = server->pid();
    server->kill();
    CHECK_FALSE(processExists(pid));
    const auto reply = server->build({"A.cs"}, Clock::now() + patience, {});
    REQUIRE_FALSE(reply.has_value());
    CHECK(reply.error() == "is not running");
    const auto settled = server->settle(Clock::now() + patience);
    REQUIRE_FALSE(settled.has_value());
    CHECK(settled.error() == "is not running");
}

TEST_CASE("compile server process: the destructor asks a ready server to QUIT, then kills it") {
    TempDir dir("server-process");
    // Logs what it reads; exits on QUIT.
    const std::string polite = readyLine() + "while IFS= read -r l; do\n"
                                             "  echo \"$l\" >> \"$(dirname \"$0\")/log\"\n"
                                             "  [ \"$l\" = QUIT ] && exit 0\n"
                                             "done\n";
    auto server = readyOrFail(fakeServer(dir.path(), polite));
    int pid = server->pid();
    server.reset();
    CHECK(readFile(dir / "log") == "QUIT\n");
    CHECK_FALSE(processExists(pid));

    // One that ignores QUIT (and holds its stdout open) is killed after a moment.
    auto stubborn =
        readyOrFail(fakeServer(dir.path(), readyLine() + "while read -r l; do :; done\n"));
    pid = stubborn->pid();
    stubborn.reset();
    CHECK_FALSE(processExists(pid));
}
