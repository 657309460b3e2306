#include "host/domain/script_snapshotter.hpp"

#include "host/domain/script_domain.hpp"

#include <algorithm>

namespace scripthost {

void noteNotCarried(std::vector<std::string>& notCarried, const std::string& className,
                    const std::string& field) {
    std::string entry = className + "." + field;
    if (std::find(notCarried.begin(), notCarried.end(), entry) == notCarried.end())
        notCarried.push_back(std::move(entry));
}

Result<void> snapshotScript(ScriptDomain& domain, ObjectId slot, ObjectId entity,
                            const std::string& className, Snapshot& snap) {
    std::vector<std::string> skipped;
    auto fields = domain.readFields(slot, &skipped);
    for (const std::string& field : skipped)
        noteNotCarried(snap.notCarried, className, field);
    if (!fields)
        return std::unexpected(fields.error());
    snap.scripts.push_back(ScriptSnapshot{slot, entity, className, std::move(*fields)});
    return {};
}

Result<void> snapshotStatics(ScriptDomain& domain, Snapshot& snap) {
    for (const ScriptClassInfo* withStatics : domain.classesWithPreservedStatics()) {
        const ScriptClassInfo& info = *withStatics;
        if (auto init = domain.initializeClass(info.name); !init)
            return std::unexpected(init.error());
        StaticSnapshot statics{info.name, {}};
        for (const FieldInfo& field : info.preservedStatics) {
            if (field.type.kind == ValueKind::Unsupported)
                continue;
            auto value = domain.getStatic(info.name, field.name);
            if (!value)
                return std::unexpected(value.error());
            statics.fields.push_back(FieldSnapshot{field.name, field.type, std::move(*value)});
        }
        snap.statics.push_back(std::move(statics));
    }
    return {};
}

} // namespace scripthost
