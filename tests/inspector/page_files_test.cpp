// PageFiles: the page's folder and nothing else.
#include "../support/test_support.hpp"
#include "page_files.hpp"

#include <doctest/doctest.h>

using namespace scripthost::inspector;
using scripthost::testing::TempDir;
using scripthost::testing::writeFile;

TEST_CASE("PageFiles: / is index.html, files are found with their content type") {
    TempDir dir("page-files");
    writeFile(dir / "page" / "index.html", "<p>");
    writeFile(dir / "page" / "vendor" / "uplot.js", "x");
    writeFile(dir / "page" / "inspector.css", "x");
    const PageFiles page(dir / "page");
    const auto index = page.find("/");
    REQUIRE(index.has_value());
    CHECK(index->file == dir / "page" / "index.html");
    CHECK(index->contentType == "text/html; charset=utf-8");
    const auto script = page.find("/vendor/uplot.js");
    REQUIRE(script.has_value());
    CHECK(script->contentType == "text/javascript; charset=utf-8");
    CHECK(page.find("/inspector.css")->contentType == "text/css; charset=utf-8");
    CHECK_FALSE(page.find("/missing.js").has_value());
}

TEST_CASE("PageFiles: nothing outside the folder, hidden, odd or of another type is served") {
    TempDir dir("page-files");
    writeFile(dir / "page" / "index.html", "<p>");
    writeFile(dir / "page" / ".secret.js", "x");
    writeFile(dir / "page" / "notes.txt", "x");
    writeFile(dir / "outside.html", "x");
    writeFile(dir / "page" / "a" / "b.js", "x");
    const PageFiles page(dir / "page");
    for (const char* path :
         {"/../outside.html", "/a/../../outside.html", "/.secret.js", "/a/.hidden.js", "/notes.txt",
          "/a//b.js", "/a/", "index.html", "/%2e%2e/outside.html", "/a\\b.js", "/a/b.js?x", ""}) {
        CAPTURE(path);
        CHECK_FALSE(page.find(path).has_value());
    }
    CHECK(page.find("/a/b.js").has_value());
}

TEST_CASE("contentTypeOf: the page's kinds of file, nothing else") {
    CHECK(contentTypeOf("a.svg") == std::optional<std::string>("image/svg+xml"));
    CHECK(contentTypeOf("a.png") == std::optional<std::string>("image/png"));
    CHECK(contentTypeOf("a.mjs") == std::optional<std::string>("text/javascript; charset=utf-8"));
    CHECK_FALSE(contentTypeOf(".js").has_value());
    CHECK_FALSE(contentTypeOf("a.exe").has_value());
}
