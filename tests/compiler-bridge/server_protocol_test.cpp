// The compile server's line protocol (client side).
#include "server_protocol.hpp"

#include <doctest/doctest.h>

using namespace scripthost::compiler::protocol;
using Kind = ServerLine::Kind;

TEST_CASE("escape keeps any text on one line and unescape reverses it") {
    const std::string tricky = "a\\b\nc\rd \\n end";
    const std::string escaped = escape(tricky);
    CHECK(escaped.find('\n') == std::string::npos);
    CHECK(escaped.find('\r') == std::string::npos);
    CHECK(unescape(escaped) == tricky);
    CHECK(escape("plain") == "plain");
}

TEST_CASE("a BUILD request is a header, the working folder, then one argument per line") {
    CHECK(encodeBuild(7, "/w d", {"-out:/a b/x.dll", "line\nbreak.cs"}) ==
          "BUILD 7 2\n/w d\n-out:/a b/x.dll\nline\\nbreak.cs\n");
}

TEST_CASE("response lines are classified strictly") {
    const ServerLine ready = parseLine("READY 1 /usr/lib/mono/4.5/mcs.exe");
    CHECK(ready.kind == Kind::Ready);
    CHECK(ready.status == 1);
    CHECK(ready.text == "/usr/lib/mono/4.5/mcs.exe");

    const ServerLine output = parseLine("| A.cs(1,2): error CS0103: x \\\\ y");
    CHECK(output.kind == Kind::Output);
    CHECK(output.text == "A.cs(1,2): error CS0103: x \\ y");

    const ServerLine end = parseLine("END 12 1 40");
    CHECK(end.kind == Kind::End);
    CHECK(end.id == 12);
    CHECK(end.status == 1);

    CHECK(parseLine("PONG 3").kind == Kind::Pong);
    CHECK(parseLine("FATAL cannot load mcs").text == "cannot load mcs");

    for (const char* garbage : {"", "END", "END 1 x 3", "END 1 0 4 extra", "END -1 0 3",
                                "|no space", "READY", "hello", "END 1 0"}) {
        CAPTURE(garbage);
        CHECK(parseLine(garbage).kind == Kind::Garbage);
    }
}
