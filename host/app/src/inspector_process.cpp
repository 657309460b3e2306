#include "inspector_process.hpp"

#include "inspector/access_token.hpp"
#include "inspector/inspector_server.hpp"
#include "inspector/loopback_listener.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <spdlog/spdlog.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace scripthost {

namespace {

std::filesystem::path pageFolderOf(const InspectorProcessOptions& options) {
    // The page's files as installed beside the binary (build/bin/inspector/ in a build).
    if (!options.pageFolder.empty())
        return options.pageFolder;
    return inspector::pageFolderBesideExecutable();
}

} // namespace

int serveInspector(const InspectorProcessOptions& options, int listenerFd, std::uint16_t port,
                   const std::string& token) {
    inspector::InspectorOptions serverOptions;
    serverOptions.listener = posix::UniqueFd(listenerFd);
    serverOptions.port = port;
    serverOptions.token = token;
    serverOptions.controlSocket = options.controlSocket;
    serverOptions.pageFolder = pageFolderOf(options);
    auto server = inspector::InspectorServer::open(std::move(serverOptions));
    if (!server) {
        spdlog::error("{}", server.error().message);
        return 1;
    }
    // SIGINT and SIGTERM end it; they are waited for on a thread of their own, which then
    // stops the server's loop.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    std::thread waiter([&stopSignals, &server] {
        int signal = 0;
        sigwait(&stopSignals, &signal);
        (*server)->stop();
    });
    (*server)->run();
    waiter.join();
    return 0;
}

Result<InspectorProcess> InspectorProcess::start(const InspectorProcessOptions& options) {
    const std::filesystem::path page = pageFolderOf(options);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(page / "index.html", ec))
        return fail("inspector: the page's files are missing (" + (page / "index.html").string() +
                    "); is the installation whole?");
    auto listener = inspector::LoopbackListener::bind(options.port);
    if (!listener)
        return std::unexpected(listener.error());
    auto token = inspector::makeAccessToken();
    if (!token)
        return std::unexpected(token.error());
    const std::uint16_t port = listener->port();
    posix::UniqueFd fd = listener->release();
    const pid_t parent = ::getpid();
    const pid_t child = ::fork();
    if (child < 0)
        return fail("inspector: fork failed");
    if (child == 0) {
        // The inspector dies with the process that started it, even by SIGKILL.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent)
            ::_exit(0);
        std::signal(SIGPIPE, SIG_IGN);
        InspectorProcessOptions served = options;
        served.pageFolder = page;
        ::_exit(serveInspector(served, fd.release(), port, *token));
    }
    return InspectorProcess(child, inspector::inspectorUrl(port, *token));
}

InspectorProcess::InspectorProcess(InspectorProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)), owner_(other.owner_), url_(std::move(other.url_)) {}

InspectorProcess::~InspectorProcess() {
    if (pid_ <= 0 || ::getpid() != owner_)
        return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
}

} // namespace scripthost
