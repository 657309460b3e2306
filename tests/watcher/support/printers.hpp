#pragma once

// Lets doctest print paths and change sets in failed assertions instead of "{?}".

#include "watcher/change_set.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <string>
#include <vector>

namespace doctest {

template <> struct StringMaker<std::vector<std::filesystem::path>> {
    static String convert(const std::vector<std::filesystem::path>& paths) {
        std::string text = "[";
        for (const auto& p : paths) {
            text += (text.size() > 1 ? ", " : "") + p.string();
        }
        return (text + "]").c_str();
    }
};

template <> struct StringMaker<scripthost::watcher::ChangeSet> {
    static String convert(const scripthost::watcher::ChangeSet& set) {
        using Paths = StringMaker<std::vector<std::filesystem::path>>;
        return String("{added=") + Paths::convert(set.added) +
               " modified=" + Paths::convert(set.modified) +
               " removed=" + Paths::convert(set.removed) + (set.rescanned ? " rescanned}" : "}");
    }
};

} // namespace doctest
