// The browser inspector's server as a user starts it: `scripthost run --inspect` (a process
// beside the host that outlives its crashes), `scripthost inspect` for a host already running,
// `scriptctl inspect --url`; the real binaries, sockets and signals.
#include "../support/daemon_client.hpp"
#include "../support/http_client.hpp"
#include "inspector_url.hpp"

#include <boost/process.hpp>
#include <csignal>
#include <nlohmann/json.hpp>
#include <regex>

using namespace scripthost;
using namespace scripthost::testing;
using scripthost::control::ControlClient;
namespace fs = std::filesystem;
namespace bp = boost::process;

namespace {

constexpr auto kRestartDeadline = std::chrono::seconds(90);

std::string scriptctlOutput(const fs::path& socket, std::vector<std::string> args, int& code) {
    bp::ipstream out;
    // A generous timeout: a host starved of CPU (tests beside a build) answers late.
    args.insert(args.begin(), {"--control", socket.string(), "--timeout", "60"});
    bp::child child(std::string(SCRIPTCTL_EXE), bp::args(args), bp::std_out > out,
                    bp::std_err > bp::null);
    std::string text, line;
    while (std::getline(out, line))
        text += line + "\n";
    child.wait();
    code = child.exit_code();
    return text;
}

/// A port nothing listens on now (the kernel's pick for a socket bound and closed).
std::uint16_t freePort() {
    namespace asio = boost::asio;
    asio::io_context io;
    asio::ip::tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), 0});
    return acceptor.local_endpoint().port();
}

/// `scripthost run` on the test's scripts and control socket, headless, and then `extra`.
std::vector<std::string> runArgs(const TempDir& dir, const fs::path& socket,
                                 std::initializer_list<std::string> extra) {
    std::vector<std::string> args = {"run",
                                     "--control",
                                     socket.string(),
                                     "--scripts",
                                     (dir.path() / "scripts").string(),
                                     "--headless",
                                     "--cold-compiler"};
    args.insert(args.end(), extra);
    return args;
}

nlohmann::json apiStatus(const Url& url) {
    const HttpResult reply =
        httpRequest(url.port, "POST", "/api", {{"Authorization", "Bearer " + url.token}},
                    R"({"id":1,"cmd":"status"})");
    if (reply.status != 200)
        return nullptr;
    return nlohmann::json::parse(reply.body, nullptr, false);
}

} // namespace

TEST_CASE("inspector: run --inspect serves the page behind its token, and keeps its port and token "
          "through a crash and restart of the host") {
    TempDir dir("inspect-run");
    writeFile(dir.path() / "scripts" / "Counter.cs", kCounter);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host(runArgs(dir, socket, {"--state-interval", "0.2", "--inspect"}), dir.path());
    ControlClient client = connectTo(socket, host);
    nlohmann::json status = callOk(client, "status");
    REQUIRE_MESSAGE(status["inspector"].is_object(), status.dump());
    const std::string url = status["inspector"]["url"];
    const Url parsed = parseUrl(url);
    CHECK_MESSAGE(host.output().find("inspector: open " + url) != std::string::npos, host.output());

    int code = -1;
    CHECK(scriptctlOutput(socket, {"inspect", "--url"}, code) == url + "\n");
    CHECK(code == 0);
    // Without --url: a sentence for people, with the same URL in it.
    const std::string told = scriptctlOutput(socket, {"inspect"}, code);
    CHECK_MESSAGE(told.starts_with("open " + url + " in a browser"), told);
    CHECK(code == 0);

    CHECK(httpRequest(parsed.port, "GET", "/").status == 403);
    const HttpResult withToken = httpRequest(parsed.port, "GET", url.substr(url.find("/?")));
    CHECK(withToken.status == 303);
    CHECK(withToken.location == "/");
    CHECK(httpRequest(
              parsed.port, "GET", "/",
              {{"Origin", "https://evil.example"}, {"Authorization", "Bearer " + parsed.token}})
              .status == 403);
    const nlohmann::json viaApi = apiStatus(parsed);
    REQUIRE(viaApi.is_object());
    CHECK(viaApi["result"]["pid"] == status["pid"]);

    // The host crashes; the supervisor restarts it; the inspector never went away.
    ::kill(status["pid"].get<int>(), SIGSEGV);
    nlohmann::json after;
    REQUIRE_MESSAGE(waitUntil(
                        [&] {
                            after = apiStatus(parsed);
                            return after.is_object() && after.value("ok", false) &&
                                   after["result"].value("restarts", 0) == 1;
                        },
                        kRestartDeadline),
                    host.output());
    CHECK(after["result"]["inspector"]["url"] == url);
    ControlClient again = connectTo(socket, host);
    callOk(again, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
    // The inspector went with the host.
    CHECK(waitUntil([&] { return httpRequest(parsed.port, "GET", "/").status == 0; }, 10s));
}

TEST_CASE("inspector: scripthost inspect serves a host that is already running, and scriptctl "
          "inspect says when a host has no inspector") {
    TempDir dir("inspect-cmd");
    writeFile(dir.path() / "scripts" / "Counter.cs", kCounter);
    const fs::path socket = dir.path() / "control.sock";
    HostProcess host(runArgs(dir, socket, {"--no-supervise"}), dir.path());
    ControlClient client = connectTo(socket, host);
    int code = -1;
    CHECK(scriptctlOutput(socket, {"inspect", "--url"}, code).empty());
    CHECK(code == 1);

    bp::ipstream out;
    bp::child inspector(std::string(SCRIPTHOST_EXE),
                        bp::args({"inspect", "--control", socket.string()}), bp::std_out > out,
                        bp::std_err > bp::null);
    std::string url;
    REQUIRE(std::getline(out, url));
    const Url parsed = parseUrl(url);
    const nlohmann::json viaApi = apiStatus(parsed);
    REQUIRE(viaApi.is_object());
    CHECK(viaApi["ok"] == true);
    CHECK(viaApi["result"]["pid"] == callOk(client, "status")["pid"]);
    ::kill(inspector.id(), SIGTERM);
    inspector.wait();
    CHECK(inspector.exit_code() == 0);
    callOk(client, "stop");
    CHECK_MESSAGE(host.wait(60s) == 0, host.output());
}

TEST_CASE("inspector: --debug warns that Mono's debugger agent has no authentication") {
    TempDir dir("inspect-debug");
    writeFile(dir.path() / "scripts" / "Counter.cs", kCounter);
    HostProcess host({"run", "--no-control", "--scripts", (dir.path() / "scripts").string(),
                      "--headless", "--cold-compiler", "--frames", "30", "--no-supervise",
                      "--debug", std::to_string(freePort())},
                     dir.path());
    host.wait(120s);
    CHECK_MESSAGE(host.output().find("without any authentication") != std::string::npos,
                  host.output());
    CHECK_MESSAGE(host.output().find("--debug-connect") != std::string::npos, host.output());
}
