#include "snapshot_comparison.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <fmt/format.h>
#include <map>
#include <type_traits>

namespace scripthost {

namespace {

bool sameBits(float a, float b) noexcept {
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}
bool sameBits(double a, double b) noexcept {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
template <typename Vec> bool sameComponents(const Vec& a, const Vec& b, int n) noexcept {
    for (int i = 0; i < n; ++i) {
        if (!sameBits(a[i], b[i]))
            return false;
    }
    return true;
}

// The bits of a float or double, so two values that print alike (two NaNs, 0 and -0)
// still show how they differ.
std::string bitsOf(const Value& value) {
    if (const auto* f = std::get_if<float>(&value))
        return fmt::format(" (bits 0x{:08x})", std::bit_cast<std::uint32_t>(*f));
    if (const auto* d = std::get_if<double>(&value))
        return fmt::format(" (bits 0x{:016x})", std::bit_cast<std::uint64_t>(*d));
    return {};
}

void addMismatch(SnapshotComparison& result, std::string where, const Value* before,
                 const Value* after) {
    std::string b = before ? describe(*before) : "(missing)";
    std::string a = after ? describe(*after) : "(missing)";
    if (before && after && a == b) {
        b += bitsOf(*before);
        a += bitsOf(*after);
    }
    result.mismatches.push_back({std::move(where), std::move(b), std::move(a)});
}

void compareFields(SnapshotComparison& result, const std::string& prefix,
                   const std::vector<FieldSnapshot>& before,
                   const std::vector<FieldSnapshot>& after) {
    std::map<std::string, const FieldSnapshot*> remaining;
    for (const FieldSnapshot& f : after)
        remaining[f.name] = &f;
    for (const FieldSnapshot& b : before) {
        ++result.fields;
        const std::string where = prefix + "." + b.name;
        auto it = remaining.find(b.name);
        if (it == remaining.end()) {
            addMismatch(result, where, &b.value, nullptr);
            continue;
        }
        const FieldSnapshot& a = *it->second;
        remaining.erase(it);
        if (!(a.type == b.type)) {
            result.mismatches.push_back({where + " (type)", b.type.typeName, a.type.typeName});
        } else if (!sameValue(b.value, a.value)) {
            addMismatch(result, where, &b.value, &a.value);
        }
    }
    for (const auto& [name, field] : remaining)
        addMismatch(result, prefix + "." + name, nullptr, &field->value);
}

} // namespace

bool sameValue(const Value& a, const Value& b) noexcept {
    if (a.index() != b.index())
        return false;
    return std::visit(
        [&](const auto& x) -> bool {
            using T = std::decay_t<decltype(x)>;
            const T& y = std::get<T>(b);
            if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
                return sameBits(x, y);
            } else if constexpr (std::is_same_v<T, glm::vec2> || std::is_same_v<T, glm::vec3> ||
                                 std::is_same_v<T, glm::vec4> || std::is_same_v<T, glm::quat>) {
                return sameComponents(x, y, static_cast<int>(T::length()));
            } else if constexpr (std::is_same_v<T, ValueList>) {
                if (x.size() != y.size())
                    return false;
                for (std::size_t i = 0; i < x.size(); ++i) {
                    if (!sameValue(x[i], y[i]))
                        return false;
                }
                return true;
            } else {
                return x == y;
            }
        },
        a);
}

SnapshotComparison compareSnapshots(const Snapshot& before, const Snapshot& after,
                                    const EntityNamer& entityName) {
    SnapshotComparison result;
    const std::size_t common = std::min(before.scripts.size(), after.scripts.size());
    for (std::size_t i = 0; i < common; ++i) {
        const ScriptSnapshot& b = before.scripts[i];
        const ScriptSnapshot& a = after.scripts[i];
        ++result.scripts;
        const std::string prefix = entityName(b.entity) + "/" + b.className;
        if (a.script != b.script || a.entity != b.entity || a.className != b.className) {
            result.mismatches.push_back(
                {prefix + " (script)",
                 fmt::format("{} {} on {}", b.className, b.script.toString(), b.entity.toString()),
                 fmt::format("{} {} on {}", a.className, a.script.toString(),
                             a.entity.toString())});
            continue;
        }
        compareFields(result, prefix, b.fields, a.fields);
    }
    for (std::size_t i = common; i < before.scripts.size(); ++i) {
        const ScriptSnapshot& b = before.scripts[i];
        result.mismatches.push_back({entityName(b.entity) + "/" + b.className + " (script)",
                                     b.script.toString(), "(missing)"});
    }
    for (std::size_t i = common; i < after.scripts.size(); ++i) {
        const ScriptSnapshot& a = after.scripts[i];
        result.mismatches.push_back({entityName(a.entity) + "/" + a.className + " (script)",
                                     "(missing)", a.script.toString()});
    }

    std::map<std::string, const StaticSnapshot*> afterStatics;
    for (const StaticSnapshot& s : after.statics)
        afterStatics[s.className] = &s;
    for (const StaticSnapshot& b : before.statics) {
        auto it = afterStatics.find(b.className);
        static const std::vector<FieldSnapshot> none;
        compareFields(result, "static " + b.className, b.fields,
                      it == afterStatics.end() ? none : it->second->fields);
        if (it != afterStatics.end())
            afterStatics.erase(it);
    }
    for (const auto& [name, s] : afterStatics)
        compareFields(result, "static " + name, {}, s->fields);
    return result;
}

} // namespace scripthost
