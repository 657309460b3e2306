#pragma once
// OutputGenerations: a fresh output path per build (<folder>/gen<N>/<Name>.dll), so an
// assembly the host has loaded is never overwritten.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace scripthost::compiler {

/// Hands out `<folder>/gen<N>/<name>.dll` with N increasing, starting above any gen<N>
/// folder already there (so a restarted host never reuses a path). Not thread-safe.
class OutputGenerations {
public:
    /// `name` is the assembly name without extension, e.g. "Scripts".
    OutputGenerations(std::filesystem::path folder, std::string name);

    /// The next unused path; its folder is created (empty) by the build, not here.
    [[nodiscard]] std::filesystem::path next();

    /// The next unused folder, `<folder>/gen<N>`, for a build that writes several assemblies
    /// (an assembly set: `<Name>.dll` each); shares the numbering with next().
    [[nodiscard]] std::filesystem::path nextFolder();

    /// Deletes every gen<N> folder older than the newest `keep` ones (keep >= 1), except
    /// those holding a file of `inUse` (an assembly set's reused outputs: their paths must stay
    /// as they are, see AssemblySetRequest::previous). Returns how many were removed; folders
    /// that cannot be removed are skipped.
    std::size_t prune(std::size_t keep, const std::vector<std::filesystem::path>& inUse = {});

    /// The folder holding the generations.
    [[nodiscard]] const std::filesystem::path& folder() const noexcept { return folder_; }

private:
    std::filesystem::path folder_;
    std::string name_;
    std::uint64_t next_ = 1;
};

} // namespace scripthost::compiler
