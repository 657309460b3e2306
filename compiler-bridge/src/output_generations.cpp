#include "compiler_bridge/output_generations.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

namespace scripthost::compiler {

namespace {

/// N for a folder named gen<N>, else 0.
std::uint64_t generationOf(const std::filesystem::path& folder) {
    const std::string name = folder.filename().string();
    if (!name.starts_with("gen")) {
        return 0;
    }
    std::uint64_t n = 0;
    const char* end = name.data() + name.size();
    auto [ptr, ec] = std::from_chars(name.data() + 3, end, n);
    return ec == std::errc() && ptr == end ? n : 0;
}

std::vector<std::pair<std::uint64_t, std::filesystem::path>>
generations(const std::filesystem::path& folder) {
    std::vector<std::pair<std::uint64_t, std::filesystem::path>> found;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end;
         it.increment(ec)) {
        if (const std::uint64_t n = generationOf(it->path()); n != 0 && it->is_directory(ec)) {
            found.emplace_back(n, it->path());
        }
    }
    std::sort(found.begin(), found.end());
    return found;
}

} // namespace

OutputGenerations::OutputGenerations(std::filesystem::path folder, std::string name)
    : folder_(std::move(folder)), name_(std::move(name)) {
    const auto existing = generations(folder_);
    if (!existing.empty()) {
        next_ = existing.back().first + 1;
    }
}

std::filesystem::path OutputGenerations::next() {
    return nextFolder() / (name_ + ".dll");
}

std::filesystem::path OutputGenerations::nextFolder() {
    std::error_code ec;
    // Skip anything that appeared meanwhile (another process, a stale folder).
    while (std::filesystem::exists(folder_ / ("gen" + std::to_string(next_)), ec)) {
        ++next_;
    }
    return folder_ / ("gen" + std::to_string(next_++));
}

std::size_t OutputGenerations::prune(std::size_t keep,
                                     const std::vector<std::filesystem::path>& inUse) {
    keep = std::max<std::size_t>(keep, 1);
    const auto existing = generations(folder_);
    const auto normal = [](const std::filesystem::path& path) {
        std::error_code ec;
        const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
        return (ec ? path : absolute).lexically_normal();
    };
    const auto holdsOneInUse = [&](const std::filesystem::path& generation) {
        return std::ranges::any_of(inUse, [&](const std::filesystem::path& file) {
            return normal(file).parent_path() == normal(generation);
        });
    };
    std::size_t removed = 0;
    for (std::size_t i = 0; i + keep < existing.size(); ++i) {
        if (holdsOneInUse(existing[i].second)) {
            continue;
        }
        std::error_code ec;
        std::filesystem::remove_all(existing[i].second, ec);
        removed += ec ? 0 : 1;
    }
    return removed;
}

} // namespace scripthost::compiler
