#include "watcher/change_set.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace scripthost::watcher {

namespace fs = std::filesystem;

namespace {

enum class Kind { Added, Modified, Removed };

void sortUnique(std::vector<fs::path>& paths) {
    std::ranges::sort(paths);
    const auto tail = std::ranges::unique(paths);
    paths.erase(tail.begin(), tail.end());
}

} // namespace

void ChangeSet::normalize() {
    sortUnique(added);
    sortUnique(modified);
    sortUnique(removed);
    sortUnique(complete);
}

void ChangeSet::mergeLater(const ChangeSet& later) {
    if (later.firstSeen && (!firstSeen || *later.firstSeen < *firstSeen)) {
        firstSeen = later.firstSeen;
    }
    std::map<fs::path, Kind> state;
    for (const auto& p : added) {
        state[p] = Kind::Added;
    }
    for (const auto& p : modified) {
        state[p] = Kind::Modified;
    }
    for (const auto& p : removed) {
        state[p] = Kind::Removed;
    }

    const auto apply = [&](const fs::path& p, Kind next) {
        const auto it = state.find(p);
        if (it == state.end()) {
            state.emplace(p, next);
            return;
        }
        const Kind earlier = it->second;
        if (earlier == Kind::Added && next == Kind::Removed) {
            state.erase(it); // existed only in between: nobody needs to hear about it
        } else if (earlier == Kind::Added) {
            it->second = Kind::Added; // still new compared with what the consumer knew
        } else if (next == Kind::Removed) {
            it->second = Kind::Removed;
        } else {
            it->second = Kind::Modified; // removed+added, modified+modified, ...
        }
    };
    for (const auto& p : later.added) {
        apply(p, Kind::Added);
    }
    for (const auto& p : later.modified) {
        apply(p, Kind::Modified);
    }
    for (const auto& p : later.removed) {
        apply(p, Kind::Removed);
    }
    // Whole as the later set says for the files it lists, as this one says for the others.
    std::set<fs::path> whole(complete.begin(), complete.end());
    for (const auto* list : {&later.added, &later.modified, &later.removed}) {
        for (const auto& p : *list) {
            whole.erase(p);
        }
    }
    whole.insert(later.complete.begin(), later.complete.end());

    added.clear();
    modified.clear();
    removed.clear();
    complete.clear();
    for (const auto& [p, kind] : state) { // map order: lists come out sorted
        switch (kind) {
        case Kind::Added:
            added.push_back(p);
            break;
        case Kind::Modified:
            modified.push_back(p);
            break;
        case Kind::Removed:
            removed.push_back(p);
            continue;
        }
        if (whole.contains(p)) {
            complete.push_back(p);
        }
    }
    rescanned = rescanned || later.rescanned;
}

} // namespace scripthost::watcher
