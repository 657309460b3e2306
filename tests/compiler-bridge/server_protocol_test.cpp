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
    // Not the build to prepare the next one for (an assembly set's later compiles).
    CHECK(encodeBuild(8, "/w", {"a.cs"}, false) == "BUILD 8 1 keep\n/w\na.cs\n");
}

TEST_CASE("a SETTLE request is one line") {
    CHECK(encodeSettle(9) == "SETTLE 9\n");
}

TEST_CASE("an INTERFACE request is its header and the escaped path") {
    CHECK(encodeInterface(4, "/tmp/a b/Core.dll") == "INTERFACE 4\n/tmp/a b/Core.dll\n");
    CHECK(encodeInterface(5, "/tmp/odd\nname.dll") == "INTERFACE 5\n/tmp/odd\\nname.dll\n");
}

TEST_CASE("response lines are classified strictly") {
    const ServerLine ready = parseLine("READY 1 /usr/lib/mono/4.5/mcs.exe");
    CHECK(ready.kind == Kind::Ready);
    CHECK(ready.status == 1);
    CHECK(ready.text == "/usr/lib/mono/4.5/mcs.exe");

    const ServerLine output = parseLine("| A.cs(1,2): error CS0103: x \\\\ y");
    CHECK(output.kind == Kind::Output);
    CHECK(output.text == "A.cs(1,2): error CS0103: x \\ y");

    const ServerLine end = parseLine("END 12 1 40 imported");
    CHECK(end.kind == Kind::End);
    CHECK(end.id == 12);
    CHECK(end.status == 1);
    CHECK_FALSE(end.referencesPrepared);
    const ServerLine prepared = parseLine("END 13 0 3 prepared");
    CHECK(prepared.kind == Kind::End);
    CHECK(prepared.id == 13);
    CHECK(prepared.referencesPrepared);

    const ServerLine settled = parseLine("SETTLED 5 prepared");
    CHECK(settled.kind == Kind::Settled);
    CHECK(settled.id == 5);
    CHECK(settled.referencesPrepared);
    CHECK_FALSE(parseLine("SETTLED 6 none").referencesPrepared);
    CHECK(parseLine("SETTLED 6 none").kind == Kind::Settled);

    const std::string hash(64, 'a');
    const ServerLine answer = parseLine("INTERFACE 7 " + hash);
    CHECK(answer.kind == Kind::Interface);
    CHECK(answer.id == 7);
    CHECK(answer.text == hash);
    const ServerLine unreadable = parseLine("INTERFACE 8 -");
    CHECK(unreadable.kind == Kind::Interface);
    CHECK(unreadable.text.empty());
    for (const std::string& garbage :
         {std::string("INTERFACE 7"), "INTERFACE 7 " + hash.substr(1), "INTERFACE 7 " + hash + "0",
          "INTERFACE 7 " + std::string(64, 'G'), std::string("INTERFACE x -"),
          std::string("INTERFACE 7 - x")}) {
        CAPTURE(garbage);
        CHECK(parseLine(garbage).kind == Kind::Garbage);
    }

    CHECK(parseLine("PONG 3").kind == Kind::Pong);
    CHECK(parseLine("FATAL cannot load mcs").text == "cannot load mcs");

    // A version-1 END (no references word) is garbage: the wrong server exe.
    for (const char* garbage :
         {"", "END", "END 1 x 3 imported", "END 1 0 4 extra", "END 1 0 4", "END -1 0 3 prepared",
          "END 1 0 4 prepared x", "|no space", "READY", "hello", "END 1 0", "SETTLED 1",
          "SETTLED 1 maybe", "SETTLED x none"}) {
        CAPTURE(garbage);
        CHECK(parseLine(garbage).kind == Kind::Garbage);
    }
}
