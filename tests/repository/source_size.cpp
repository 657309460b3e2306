#include "source_size.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

namespace scripthost::repository {
namespace fs = std::filesystem;

namespace {

/// `source` with comments, string and character literals blanked (newlines kept, so line
/// numbers stay), raw strings included.
std::string blankLiterals(std::string_view source) {
    std::string out(source);
    std::size_t i = 0;
    auto blank = [&](std::size_t from, std::size_t to) {
        for (std::size_t k = from; k < to && k < out.size(); ++k)
            if (out[k] != '\n')
                out[k] = ' ';
    };
    while (i < out.size()) {
        if (out.compare(i, 2, "//") == 0) {
            const std::size_t end = out.find('\n', i);
            blank(i, end == std::string::npos ? out.size() : end);
            i = end == std::string::npos ? out.size() : end;
        } else if (out.compare(i, 2, "/*") == 0) {
            const std::size_t end = out.find("*/", i + 2);
            const std::size_t stop = end == std::string::npos ? out.size() : end + 2;
            blank(i, stop);
            i = stop;
        } else if (out.compare(i, 2, "R\"") == 0) {
            const std::size_t paren = out.find('(', i + 2);
            const std::string delimiter =
                ")" + out.substr(i + 2, paren == std::string::npos ? 0 : paren - i - 2) + "\"";
            const std::size_t end = out.find(delimiter, paren);
            const std::size_t stop =
                end == std::string::npos ? out.size() : end + delimiter.size();
            blank(i, stop);
            i = stop;
        } else if (out[i] == '"' || out[i] == '\'') {
            const char quote = out[i];
            std::size_t k = i + 1;
            while (k < out.size() && out[k] != quote && out[k] != '\n')
                k += out[k] == '\\' ? 2 : 1;
            blank(i, k + 1);
            i = k + 1;
        } else {
            ++i;
        }
    }
    return out;
}

bool isFunctionBrace(const std::string& text, std::size_t brace) {
    // Skip back over qualifiers to the ')' that ends a parameter list.
    static const std::regex tail(
        R"(\)\s*((const|noexcept|override|final|mutable|volatile|&|&&)\s*)*(->\s*[\w:<>,\s*&]+)?\s*$)");
    const std::size_t from = brace > 400 ? brace - 400 : 0;
    const std::string before = text.substr(from, brace - from);
    std::smatch match;
    if (!std::regex_search(before, match, tail))
        return false;
    // Find the '(' that opens it, and the word before that.
    std::size_t close = static_cast<std::size_t>(match.position(0));
    int depth = 0;
    std::size_t open = std::string::npos;
    for (std::size_t k = close + 1; k-- > 0;) {
        if (before[k] == ')')
            ++depth;
        else if (before[k] == '(' && --depth == 0) {
            open = k;
            break;
        }
    }
    if (open == std::string::npos)
        return false;
    std::size_t end = open;
    while (end > 0 && std::isspace(static_cast<unsigned char>(before[end - 1])))
        --end;
    std::size_t start = end;
    while (start > 0 && (std::isalnum(static_cast<unsigned char>(before[start - 1])) ||
                         before[start - 1] == '_'))
        --start;
    const std::string word = before.substr(start, end - start);
    static const char* const kControl[] = {"if",     "for",      "while", "switch", "catch",
                                           "return", "sizeof", "decltype", "using", "lock",
                                           "foreach", "fixed"};
    return std::none_of(std::begin(kControl), std::end(kControl),
                        [&](const char* k) { return word == k; });
}

} // namespace

std::vector<std::pair<int, int>> functionBodies(std::string_view source) {
    const std::string text = blankLiterals(source);
    std::vector<std::pair<int, int>> bodies;
    struct Open {
        bool function;
        int line;
    };
    std::vector<Open> stack;
    int line = 1;
    int insideFunctions = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
        } else if (c == '{') {
            const bool function = insideFunctions == 0 && isFunctionBrace(text, i);
            stack.push_back({function, line});
            insideFunctions += function ? 1 : 0;
        } else if (c == '}' && !stack.empty()) {
            const Open open = stack.back();
            stack.pop_back();
            if (open.function) {
                --insideFunctions;
                bodies.emplace_back(open.line, line - open.line);
            }
        }
    }
    return bodies;
}

std::vector<SizeViolation> checkSizes(const fs::path& root, const std::vector<std::string>& folders,
                                      int maxFileLines, int maxFunctionLines) {
    std::vector<SizeViolation> violations;
    for (const std::string& folder : folders) {
        for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
            const std::string ext = entry.path().extension().string();
            if (!entry.is_regular_file() ||
                (ext != ".cpp" && ext != ".hpp" && ext != ".h" && ext != ".cs"))
                continue;
            std::ifstream in(entry.path(), std::ios::binary);
            std::ostringstream buffer;
            buffer << in.rdbuf();
            const std::string source = buffer.str();
            const std::string relative = fs::relative(entry.path(), root).generic_string();
            const int lines = static_cast<int>(std::count(source.begin(), source.end(), '\n'));
            if (lines > maxFileLines)
                violations.push_back({relative, 0, lines});
            for (const auto& [start, length] : functionBodies(source))
                if (length > maxFunctionLines)
                    violations.push_back({relative, start, length});
        }
    }
    std::sort(violations.begin(), violations.end(),
              [](const SizeViolation& a, const SizeViolation& b) {
                  return std::tie(a.file, a.line) < std::tie(b.file, b.line);
              });
    return violations;
}

} // namespace scripthost::repository
