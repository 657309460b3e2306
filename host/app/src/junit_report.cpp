#include "junit_report.hpp"

#include <cstdint>
#include <fmt/format.h>
#include <fstream>

namespace scripthost {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD

// Length of the valid UTF-8 sequence starting at text[at] (1 to 4), or 0 if it is invalid.
std::size_t utf8SequenceLength(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(at);
    std::size_t length = 0;
    std::uint32_t min = 0;
    std::uint32_t code = 0;
    if (lead < 0x80) {
        return 1;
    } else if ((lead & 0xE0) == 0xC0) {
        length = 2, min = 0x80, code = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3, min = 0x800, code = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4, min = 0x10000, code = lead & 0x07;
    } else {
        return 0;
    }
    if (at + length > text.size())
        return 0;
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(at + i) & 0xC0) != 0x80)
            return 0;
        code = (code << 6) | (byte(at + i) & 0x3F);
    }
    // Overlong forms, surrogates, beyond U+10FFFF, and U+FFFE/U+FFFF are not XML characters.
    if (code < min || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF || code == 0xFFFE ||
        code == 0xFFFF) {
        return 0;
    }
    return length;
}

std::string seconds(double s) {
    return fmt::format("{:.3f}", s < 0 ? 0.0 : s);
}

} // namespace

std::string escapeXml(std::string_view text, bool attribute) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t at = 0; at < text.size();) {
        const char c = text[at];
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;"; // needed only in "]]>", but harmless everywhere
            break;
        case '"':
            out += attribute ? "&quot;" : "\"";
            break;
        case '\'':
            out += attribute ? "&apos;" : "'";
            break;
        case '\t':
            out += attribute ? "&#9;" : "\t";
            break;
        case '\n':
            out += attribute ? "&#10;" : "\n";
            break;
        case '\r':
            out += "&#13;"; // a raw CR would be normalised away in content too
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                out += kReplacement; // not representable in XML 1.0, not even as &#n;
                break;
            }
            if (const std::size_t n = utf8SequenceLength(text, at); n == 0) {
                out += kReplacement;
            } else {
                out.append(text.substr(at, n));
                at += n;
                continue;
            }
        }
        ++at;
    }
    return out;
}

std::string JUnitReport::toXml() const {
    std::size_t failures = 0;
    std::size_t skipped = 0;
    double total = 0;
    for (const JUnitCase& c : cases) {
        failures += c.outcome == JUnitCase::Outcome::Failed;
        skipped += c.outcome == JUnitCase::Outcome::Skipped;
        total += c.seconds;
    }
    const std::string name = escapeXml(suiteName, true);
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    xml += fmt::format(
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" "
        "time=\"{}\">\n",
        name, cases.size(), failures, skipped, seconds(total));
    xml += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" "
                       "skipped=\"{}\" time=\"{}\">\n",
                       name, cases.size(), failures, skipped, seconds(total));
    for (const JUnitCase& c : cases) {
        xml +=
            fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{}\"",
                        escapeXml(c.name, true), escapeXml(c.className, true), seconds(c.seconds));
        switch (c.outcome) {
        case JUnitCase::Outcome::Passed:
            xml += "/>\n";
            break;
        case JUnitCase::Outcome::Skipped:
            xml += fmt::format(">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                               escapeXml(c.message, true));
            break;
        case JUnitCase::Outcome::Failed:
            xml += fmt::format(">\n      <failure message=\"{}\" type=\"failure\">{}</failure>\n"
                               "    </testcase>\n",
                               escapeXml(c.message, true),
                               escapeXml(c.details.empty() ? c.message : c.details, false));
            break;
        }
    }
    xml += "  </testsuite>\n</testsuites>\n";
    return xml;
}

std::string JUnitReport::write(const std::filesystem::path& file) const {
    std::error_code ec;
    if (file.has_parent_path())
        std::filesystem::create_directories(file.parent_path(), ec);
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << toXml();
    out.close();
    if (!out)
        return "cannot write the JUnit report " + file.string();
    return {};
}

} // namespace scripthost
