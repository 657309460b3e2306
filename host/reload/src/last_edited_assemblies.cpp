#include "last_edited_assemblies.hpp"

#include <algorithm>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

namespace scripthost {

namespace fs = std::filesystem;

namespace {

/// When the newest of `assembly`'s sources not in `ignored` was modified; none when no such
/// source is left on disk.
std::optional<fs::file_time_type> newestSource(const compiler::ScriptAssembly& assembly,
                                               const std::set<fs::path>& ignored) {
    std::optional<fs::file_time_type> newest;
    for (const fs::path& source : assembly.sources) {
        if (ignored.contains(source))
            continue;
        std::error_code ec;
        const fs::file_time_type time = fs::last_write_time(source, ec);
        if (!ec && (!newest || time > *newest))
            newest = time;
    }
    return newest;
}

} // namespace

std::set<std::string> lastEditedAssemblies(const compiler::AssemblyLayout& layout,
                                           const std::set<fs::path>& ignored, std::size_t most,
                                           std::chrono::seconds apart) {
    std::vector<std::pair<fs::file_time_type, const std::string*>> ranked;
    for (const compiler::ScriptAssembly& assembly : layout.assemblies) {
        if (auto time = newestSource(assembly, ignored))
            ranked.emplace_back(*time, &assembly.name);
    }
    std::ranges::sort(ranked, [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : *a.second < *b.second;
    });
    if (ranked.size() < 2)
        return {};
    // The longest run first: edits a minute apart, both long after the checkout, are both
    // recent even though the second does not trail the first by `apart`.
    for (std::size_t run = std::min(most, ranked.size() - 1); run > 0; --run) {
        if (ranked[run - 1].first - ranked[run].first < apart)
            continue;
        std::set<std::string> names;
        for (std::size_t i = 0; i < run; ++i)
            names.insert(*ranked[i].second);
        return names;
    }
    return {};
}

} // namespace scripthost
