#pragma once
// JUnitReport: a test run written as JUnit XML, the format CI systems show as test results.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost {

/// One test case of a JUnit report.
struct JUnitCase {
    enum class Outcome { Passed, Failed, Skipped };
    std::string name;      ///< e.g. "reload 3"
    std::string className; ///< the group CI files the case under, e.g. "scripthost.smoke"
    double seconds = 0;
    Outcome outcome = Outcome::Passed;
    std::string message; ///< one line: why it failed or was skipped
    std::string details; ///< the full text of a failure (diagnostics, stack trace)
};

/// A JUnit report: one <testsuite> inside <testsuites>, its counts derived from the cases.
struct JUnitReport {
    std::string suiteName;
    std::vector<JUnitCase> cases;

    /// The XML document (UTF-8, with declaration).
    [[nodiscard]] std::string toXml() const;
    /// Writes toXml() to `file`; returns an error message, empty on success.
    [[nodiscard]] std::string write(const std::filesystem::path& file) const;
};

/// Escapes text for XML 1.0 character data or a double-quoted attribute value: the five
/// markup characters become entities; in attributes tab, CR and LF become character
/// references so they survive attribute-value normalisation; other control characters
/// (which XML 1.0 cannot represent at all) and invalid UTF-8 become U+FFFD.
[[nodiscard]] std::string escapeXml(std::string_view text, bool attribute);

} // namespace scripthost
