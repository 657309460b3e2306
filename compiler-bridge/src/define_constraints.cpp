#include "compiler_bridge/define_constraints.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

namespace scripthost::compiler {
namespace {

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
        text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
        text.remove_suffix(1);
    }
    return text;
}

bool isSymbol(std::string_view text) {
    const auto symbolChar = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    return !text.empty() && !std::isdigit(static_cast<unsigned char>(text.front())) &&
           std::ranges::all_of(text, symbolChar);
}

/// One term's value with `defines`; nullopt when it is not `symbol` or `!symbol`.
std::optional<bool> termHolds(std::string_view term, const std::vector<std::string>& defines) {
    term = trimmed(term);
    const bool negated = term.starts_with('!');
    if (negated) {
        term = trimmed(term.substr(1));
    }
    if (!isSymbol(term)) {
        return std::nullopt;
    }
    const bool defined = std::ranges::find(defines, term) != defines.end();
    return defined != negated;
}

/// `constraint`'s value with `defines`; nullopt when a term is malformed.
std::optional<bool> constraintHolds(std::string_view constraint,
                                    const std::vector<std::string>& defines) {
    bool any = false;
    for (std::size_t at = 0;;) {
        const std::size_t bar = constraint.find("||", at);
        const std::optional<bool> term = termHolds(constraint.substr(at, bar - at), defines);
        if (!term) {
            return std::nullopt;
        }
        any = any || *term;
        if (bar == std::string_view::npos) {
            return any;
        }
        at = bar + 2;
    }
}

} // namespace

bool isDefineConstraint(std::string_view constraint) {
    return constraintHolds(constraint, {}).has_value();
}

std::vector<std::string> unmetDefineConstraints(const std::vector<std::string>& constraints,
                                                const std::vector<std::string>& defines) {
    std::vector<std::string> unmet;
    for (const std::string& constraint : constraints) {
        if (!constraintHolds(constraint, defines).value_or(false)) {
            unmet.push_back(constraint);
        }
    }
    return unmet;
}

bool defineConstraintsHold(const std::vector<std::string>& constraints,
                           const std::vector<std::string>& defines) {
    return unmetDefineConstraints(constraints, defines).empty();
}

std::string describeUnmetConstraints(const std::vector<std::string>& constraints,
                                     const std::vector<std::string>& defines) {
    std::string unmet, defined;
    for (const std::string& constraint : unmetDefineConstraints(constraints, defines)) {
        unmet += (unmet.empty() ? "\"" : ", \"") + constraint + "\"" +
                 (isDefineConstraint(constraint) ? "" : " (cannot be evaluated)");
    }
    for (const std::string& symbol : defines) {
        defined += (defined.empty() ? "" : ", ") + symbol;
    }
    return unmet + " do not hold with " +
           (defined.empty() ? "no symbol defined" : "the symbols " + defined);
}

} // namespace scripthost::compiler
