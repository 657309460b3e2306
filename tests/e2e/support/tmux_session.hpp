#pragma once
// TmuxSession: a program in a private tmux server's pane, for tests that need a terminal.

#include <boost/process.hpp>
#include <filesystem>
#include <string>
#include <vector>

namespace scripthost::testing {

struct TmuxSession {
    std::string session;
    std::filesystem::path socket; // a private tmux server, so the test never touches the user's

    int run(std::vector<std::string> args, std::string* out = nullptr) const {
        namespace bp = boost::process;
        args.insert(args.begin(), {"-S", socket.string()});
        bp::ipstream stream;
        bp::child child(bp::search_path("tmux"), bp::args(args), bp::std_in.close(),
                        (bp::std_out & bp::std_err) > stream);
        std::string text, line;
        while (std::getline(stream, line))
            text += line + "\n";
        child.wait();
        if (out)
            *out = text;
        return child.exit_code();
    }
    /// The pane as shown; with `scrollback`, its history too.
    std::string screen(bool scrollback = false) const {
        std::string text;
        std::vector<std::string> args{"capture-pane", "-p", "-t", session};
        if (scrollback)
            args.insert(args.end(), {"-S", "-2000"});
        run(args, &text);
        return text;
    }
    /// Types `line` and Enter.
    void type(const std::string& line) const { run({"send-keys", "-t", session, line, "Enter"}); }
    bool alive() const { return run({"has-session", "-t", session}) == 0; }
    ~TmuxSession() { run({"kill-server"}); } // ends the pane's program with it
};

} // namespace scripthost::testing
