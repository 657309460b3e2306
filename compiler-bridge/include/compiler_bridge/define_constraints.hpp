#pragma once
// Unity's define constraints (an .asmdef's `defineConstraints`): the symbols an assembly needs
// to be built at all, as Unity evaluates them. Each entry is a term or terms joined by `||`
// (any of them); a term is a symbol that must be defined, or `!` and a symbol that must not be.
// Every entry must hold. A test assembly's `["UNITY_INCLUDE_TESTS"]` is the common case: built
// only where that symbol is defined.

#include <string>
#include <string_view>
#include <vector>

namespace scripthost::compiler {

/// Whether `constraint` is one this evaluates: terms joined by `||`, spaces around each
/// allowed, each a C# conditional symbol (letters, digits and `_`, not starting with a digit)
/// with an optional `!` before it.
[[nodiscard]] bool isDefineConstraint(std::string_view constraint);

/// Those of `constraints` that do not hold when the symbols defined are `defines`, in their
/// order. One that isDefineConstraint refuses never holds.
[[nodiscard]] std::vector<std::string>
unmetDefineConstraints(const std::vector<std::string>& constraints,
                       const std::vector<std::string>& defines);

/// Whether every one of `constraints` holds when the symbols defined are `defines`.
[[nodiscard]] bool defineConstraintsHold(const std::vector<std::string>& constraints,
                                         const std::vector<std::string>& defines);

/// Those of `constraints` that do not hold, and the symbols defined, for a message:
/// `"UNITY_INCLUDE_TESTS" do not hold with no symbol defined`, `"A && B" (cannot be evaluated)
/// do not hold with the symbols X, Y`.
[[nodiscard]] std::string describeUnmetConstraints(const std::vector<std::string>& constraints,
                                                   const std::vector<std::string>& defines);

} // namespace scripthost::compiler
