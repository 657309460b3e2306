#pragma once
// Compiler: the interface every build backend (cold mcs, warm compile server) implements.

#include "compiler_bridge/compile_request.hpp"

#include <filesystem>
#include <optional>
#include <string>
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

    /// A hash of what other assemblies can see of the built assembly at `assembly`: its types
    /// and members as a C# reference assembly has them, without method bodies. Two builds
    /// with equal hashes compile the assemblies that reference them alike. Nullopt when this
    /// backend cannot tell (the cold one) or cannot read the file: the caller then assumes it
    /// changed. Never throws.
    [[nodiscard]] virtual std::optional<std::string>
    interfaceOf(const std::filesystem::path& assembly) {
        (void)assembly;
        return std::nullopt;
    }

    /// Starts anything resident (a compile server) ahead of the first build; optional.
    virtual void warmUp() {}

    /// The backend this compiler prefers, for logs ("cold", "warm").
    [[nodiscard]] virtual Backend backend() const noexcept = 0;
};

} // namespace scripthost::compiler
