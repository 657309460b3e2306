#pragma once
// Compiler: the interface every build backend (cold mcs, warm compile server) implements.

#include "compiler_bridge/compile_request.hpp"

#include <string_view>

namespace scripthost::compiler {

/// Builds a C# library synchronously. Implementations never throw from compile(): every
/// failure (cannot start, timed out, compile errors) is an unsuccessful CompileResult.
class Compiler {
public:
    virtual ~Compiler() = default;
    Compiler() = default;
    Compiler(const Compiler&) = delete;
    Compiler& operator=(const Compiler&) = delete;

    /// Runs one build and waits for it (at most about request.timeout, twice when a warm
    /// build has to fall back to a cold one).
    [[nodiscard]] virtual CompileResult compile(const CompileRequest& request) = 0;

    /// Starts anything resident (a compile server) ahead of the first build; optional.
    virtual void warmUp() {}

    /// The backend this compiler prefers, for logs ("cold", "warm").
    [[nodiscard]] virtual Backend backend() const noexcept = 0;
};

} // namespace scripthost::compiler
