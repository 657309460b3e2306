// JUnitReport: escaping and the document's shape, without running anything.
#include "../../support/test_support.hpp"
#include "junit_report.hpp"

#include <doctest/doctest.h>

using namespace scripthost;

TEST_CASE("escapeXml: markup characters become entities, quotes only in attributes") {
    CHECK(escapeXml("a < b && c > \"d\" 'e'", false) == "a &lt; b &amp;&amp; c &gt; \"d\" 'e'");
    CHECK(escapeXml("a < b && c > \"d\" 'e'", true) ==
          "a &lt; b &amp;&amp; c &gt; &quot;d&quot; &apos;e&apos;");
    CHECK(escapeXml("already &amp; escaped", true) == "already &amp;amp; escaped");
    CHECK(escapeXml("]]>", false) == "]]&gt;");
}

TEST_CASE("escapeXml: line breaks survive in attributes, control characters are replaced") {
    CHECK(escapeXml("one\ntwo\tthree\r", true) == "one&#10;two&#9;three&#13;");
    CHECK(escapeXml("one\ntwo\tthree", false) == "one\ntwo\tthree");
    const std::string controls{'a', '\0', 'b', '\x1b', 'c'};
    CHECK(escapeXml(controls, false) == "a\xEF\xBF\xBD"
                                        "b\xEF\xBF\xBD"
                                        "c");
}

TEST_CASE("escapeXml: valid UTF-8 is kept, invalid bytes become U+FFFD") {
    CHECK(escapeXml("caf\xC3\xA9 \xE2\x80\xA6 \xF0\x9F\x98\x80", false) ==
          "caf\xC3\xA9 \xE2\x80\xA6 \xF0\x9F\x98\x80");
    CHECK(escapeXml("bad \xFF end", false) == "bad \xEF\xBF\xBD end");
    CHECK(escapeXml("cut \xE2\x80", false) == "cut \xEF\xBF\xBD\xEF\xBF\xBD");
    CHECK(escapeXml("overlong \xC0\xAF", false) == "overlong \xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST_CASE("JUnitReport: counts, times, failure and skipped elements, escaped names") {
    JUnitReport report;
    report.suiteName = "smoke <demo>";
    report.cases.push_back(
        {"compile", "scripthost.smoke", 0.25, JUnitCase::Outcome::Passed, "", ""});
    report.cases.push_back({"frames \"A&B\"", "scripthost.smoke", 1.5, JUnitCase::Outcome::Failed,
                            "threw <Boom>", "System.Exception: <Boom>\n  at Boom.cs:3"});
    report.cases.push_back(
        {"reload 1", "scripthost.smoke", 0, JUnitCase::Outcome::Skipped, "not run", ""});
    const std::string xml = report.toXml();
    CHECK(xml == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<testsuites name=\"smoke &lt;demo&gt;\" tests=\"3\" failures=\"1\" "
                 "errors=\"0\" skipped=\"1\" time=\"1.750\">\n"
                 "  <testsuite name=\"smoke &lt;demo&gt;\" tests=\"3\" failures=\"1\" "
                 "errors=\"0\" skipped=\"1\" time=\"1.750\">\n"
                 "    <testcase name=\"compile\" classname=\"scripthost.smoke\" time=\"0.250\"/>\n"
                 "    <testcase name=\"frames &quot;A&amp;B&quot;\" classname=\"scripthost.smoke\" "
                 "time=\"1.500\">\n"
                 "      <failure message=\"threw &lt;Boom&gt;\" type=\"failure\">"
                 "System.Exception: &lt;Boom&gt;\n  at Boom.cs:3</failure>\n"
                 "    </testcase>\n"
                 "    <testcase name=\"reload 1\" classname=\"scripthost.smoke\" time=\"0.000\">\n"
                 "      <skipped message=\"not run\"/>\n"
                 "    </testcase>\n"
                 "  </testsuite>\n"
                 "</testsuites>\n");
}

TEST_CASE("JUnitReport: write creates the folder and the file, and reports a bad path") {
    scripthost::testing::TempDir dir("junit");
    JUnitReport report;
    report.suiteName = "s";
    report.cases.push_back({"only", "c", 0.001, JUnitCase::Outcome::Passed, "", ""});
    const auto file = dir / "nested" / "report.xml";
    CHECK(report.write(file).empty());
    CHECK(scripthost::testing::readFile(file) == report.toXml());
    scripthost::testing::writeFile(dir / "plain", "a file, not a folder");
    CHECK(report.write(dir / "plain" / "report.xml") ==
          "cannot write the JUnit report " + (dir / "plain" / "report.xml").string());
}
