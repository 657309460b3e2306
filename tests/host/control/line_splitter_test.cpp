#include <control/line_splitter.hpp>
#include <doctest/doctest.h>

using scripthost::control::LineSplitter;

namespace {
using Lines = std::vector<std::string>;
}

TEST_CASE("LineSplitter: splits on newlines, strips a carriage return, skips empty lines") {
    LineSplitter splitter(100);
    Lines lines;
    CHECK(splitter.feed("one\ntwo\r\n\n\r\nthree", lines) == LineSplitter::Status::Ok);
    CHECK(lines == Lines{"one", "two"});
    CHECK(splitter.pendingBytes() == 5);
    CHECK(splitter.feed("\n", lines) == LineSplitter::Status::Ok);
    CHECK(lines == Lines{"one", "two", "three"});
    CHECK(splitter.pendingBytes() == 0);
}

TEST_CASE("LineSplitter: a line arriving byte by byte comes out whole, once") {
    LineSplitter splitter(100);
    Lines lines;
    for (const char byte : std::string("{\"cmd\":\"status\"}\r\n"))
        REQUIRE(splitter.feed(std::string_view(&byte, 1), lines) == LineSplitter::Status::Ok);
    CHECK(lines == Lines{"{\"cmd\":\"status\"}"});
}

TEST_CASE("LineSplitter: a line of exactly the limit passes, with or without a carriage return") {
    LineSplitter splitter(8);
    Lines lines;
    CHECK(splitter.feed("12345678", lines) == LineSplitter::Status::Ok);
    CHECK(splitter.feed("\r", lines) == LineSplitter::Status::Ok); // "\r\n" split in two
    CHECK(splitter.feed("\nabcdefgh\n", lines) == LineSplitter::Status::Ok);
    CHECK(lines == Lines{"12345678", "abcdefgh"});
}

TEST_CASE("LineSplitter: one byte over the limit fails before the newline arrives") {
    LineSplitter splitter(8);
    Lines lines;
    CHECK(splitter.feed("ok\n123456789", lines) == LineSplitter::Status::LineTooLong);
    CHECK(lines == Lines{"ok"});
    CHECK(splitter.pendingBytes() == 0);
}

TEST_CASE("LineSplitter: a complete line over the limit fails") {
    LineSplitter splitter(4);
    Lines lines;
    CHECK(splitter.feed("12345\n", lines) == LineSplitter::Status::LineTooLong);
    CHECK(lines.empty());
}
