#include "host/engine/field_watch.hpp"

#include "host/engine/script_host.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace scripthost {

namespace {

/// The field of `info` named `name`, or nullptr.
const FieldInfo* fieldNamed(const ScriptClassInfo& info, const std::string& name) {
    const auto found = std::ranges::find(info.fields, name, &FieldInfo::name);
    return found == info.fields.end() ? nullptr : &*found;
}

/// Targets are read in groups this large between looks at the clock.
constexpr std::size_t kTargetsPerClockCheck = 16;

} // namespace

FieldWatch FieldWatch::make(ScriptHost& host, const std::vector<FieldWatchTarget>& targets,
                            std::vector<Problem>& problems) {
    FieldWatch watch;
    for (std::size_t t = 0; t < targets.size(); ++t) {
        const FieldWatchTarget& target = targets[t];
        const ScriptClassInfo* info = host.scriptClassOf(target.script);
        if (info == nullptr) {
            problems.push_back(
                {t, fmt::format("script {} has no loaded class", target.script.toString())});
            continue;
        }
        FieldWatchTarget kept{target.script, {}};
        const std::size_t index = watch.targets_.size();
        auto addRow = [&](const FieldInfo& field) {
            kept.fields.push_back(field.name);
            watch.rows_.push_back(FieldWatchRow{index, field.name, field.type});
        };
        if (target.fields.empty()) {
            for (const FieldInfo& field : info->fields) {
                if (!field.hidden) // [HideInInspector]: only by name, as `get` lists them
                    addRow(field);
            }
        }
        for (const std::string& name : target.fields) {
            if (const FieldInfo* field = fieldNamed(*info, name))
                addRow(*field);
            else
                problems.push_back(
                    {t, fmt::format("{} has no serialized field '{}'", info->name, name)});
        }
        if (!kept.fields.empty())
            watch.targets_.push_back(std::move(kept));
    }
    std::size_t row = 0;
    for (const FieldWatchTarget& target : watch.targets_) {
        Resolved resolved;
        resolved.firstRow = row;
        resolved.rowCount = target.fields.size();
        watch.resolved_.push_back(std::move(resolved));
        row += target.fields.size();
    }
    watch.values_.resize(watch.rows_.size());
    watch.present_.assign(watch.rows_.size(), 0);
    watch.nextTarget_ = watch.targets_.size(); // no sweep until beginSweep()
    return watch;
}

void FieldWatch::resolve(ScriptHost& host, std::size_t target) {
    Resolved& r = resolved_[target];
    r.indices.assign(r.rowCount, kMissing);
    const ScriptClassInfo* info = host.scriptClassOf(targets_[target].script);
    bool whole = info != nullptr;
    for (std::size_t i = 0; info != nullptr && i < r.rowCount; ++i) {
        const FieldInfo* field = fieldNamed(*info, rows_[r.firstRow + i].field);
        // A field whose type changed would be sent as a value the watcher cannot read.
        if (field != nullptr && field->type == rows_[r.firstRow + i].type)
            r.indices[i] = static_cast<std::uint32_t>(field - info->fields.data());
        else
            whole = false;
    }
    r.whole = whole;
    r.classesVersion = host.classesVersion();
    r.found.reset(); // a new generation's instance, found when read
}

void FieldWatch::readTarget(ScriptHost& host, std::size_t target) {
    if (resolved_[target].classesVersion != host.classesVersion())
        resolve(host, target);
    Resolved& r = resolved_[target];
    const ObjectId script = targets_[target].script;
    if (!r.found || r.instancesVersion != host.instancesVersion()) {
        r.instancesVersion = host.instancesVersion();
        auto found = host.findScript(script);
        r.found = found ? std::optional(*found) : std::nullopt;
    }
    const auto firstPresent = present_.begin() + static_cast<std::ptrdiff_t>(r.firstRow);
    if (!r.found) { // destroyed, or not made yet: looked for again next sweep
        std::fill_n(firstPresent, r.rowCount, 0);
        return;
    }
    if (r.whole) {
        const bool read = host.readFieldsAt(*r.found, r.indices,
                                            std::span(values_).subspan(r.firstRow, r.rowCount))
                              .has_value();
        std::fill_n(firstPresent, r.rowCount, read ? 1 : 0);
        return;
    }
    for (std::size_t i = 0; i < r.rowCount; ++i) {
        const std::size_t row = r.firstRow + i;
        present_[row] =
            r.indices[i] != kMissing &&
            host.readFieldsAt(*r.found, std::span(&r.indices[i], 1), std::span(&values_[row], 1))
                .has_value();
    }
}

bool FieldWatch::sample(ScriptHost& host, std::size_t maxRows,
                        std::chrono::steady_clock::time_point deadline) {
    if (nextTarget_ >= targets_.size())
        return true;
    std::size_t read = 0;
    std::size_t sinceClock = 0;
    while (nextTarget_ < targets_.size() && read < maxRows) {
        readTarget(host, nextTarget_);
        read += resolved_[nextTarget_].rowCount;
        ++nextTarget_;
        if (++sinceClock == kTargetsPerClockCheck) {
            sinceClock = 0;
            if (std::chrono::steady_clock::now() >= deadline)
                break;
        }
    }
    return nextTarget_ >= targets_.size();
}

std::size_t FieldWatch::rowsSampled() const noexcept {
    if (nextTarget_ >= targets_.size())
        return rows_.size();
    return nextTarget_ < resolved_.size() ? resolved_[nextTarget_].firstRow : 0;
}

} // namespace scripthost
