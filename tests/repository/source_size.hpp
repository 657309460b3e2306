#pragma once
// How long production files and functions are, against the limits the project keeps
// (docs/ARCHITECTURE.md: no file over 500 lines, no function over 100).

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::repository {

struct SizeViolation {
    std::string file; ///< relative to the root
    int line = 0;     ///< where the function starts; 0 for the file itself
    int lines = 0;
};

/// The top-level function bodies (free functions, member functions defined out of line, and
/// the methods of a class defined in a header) of C++ or C# `source`, each as {first line,
/// lines}: a brace that follows a closing parenthesis (and qualifiers such as `const`,
/// `noexcept`, `override`, a trailing return type) and is not an `if`, `for`, `while`,
/// `switch` or `catch`, and is not nested in another function body. Comments, strings and
/// character literals are skipped.
[[nodiscard]] std::vector<std::pair<int, int>> functionBodies(std::string_view source);

/// Files under `folders` (relative to `root`; .cpp, .hpp, .h, .cs) longer than `maxFileLines`,
/// and function bodies longer than `maxFunctionLines` (counted from the line of the opening
/// brace to the line of the closing one).
[[nodiscard]] std::vector<SizeViolation> checkSizes(const std::filesystem::path& root,
                                                    const std::vector<std::string>& folders,
                                                    int maxFileLines, int maxFunctionLines);

} // namespace scripthost::repository
