#include "carry/carry_plan.hpp"

#include "host/model/value_conversion.hpp"

namespace scripthost::mono {

namespace {

// Whether no two fields share a name (a base and a derived class may each declare one).
bool namesUnique(const std::vector<FieldInfo>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
        for (std::size_t j = i + 1; j < fields.size(); ++j) {
            if (fields[i].name == fields[j].name)
                return false;
        }
    }
    return true;
}

// The old fields a snapshot would carry (the others restart from their defaults); the
// rest are named in the plan's notCarried.
std::vector<std::size_t> carriedFields(const std::vector<FieldInfo>& oldFields, CarryPlan& plan) {
    std::vector<std::size_t> carried;
    for (std::size_t i = 0; i < oldFields.size(); ++i) {
        if (oldFields[i].type.kind == ValueKind::Unsupported) {
            plan.notCarried.push_back(oldFields[i].name + " (" + oldFields[i].type.typeName + ")");
        } else {
            carried.push_back(i);
        }
    }
    return carried;
}

// Pairs every new field with the carried old field of its name; false when a field was
// renamed or changed shape, or an old field would be left behind.
bool pairFields(const ScriptClassEntry& to, const ScriptClassEntry& from,
                const std::vector<std::size_t>& carried, CarryPlan& plan) {
    const auto& oldFields = from.info.fields;
    const auto& newFields = to.info.fields;
    auto findOld = [&](const std::string& name) -> const std::size_t* {
        for (const std::size_t& i : carried) {
            if (oldFields[i].name == name)
                return &i;
        }
        return nullptr;
    };
    std::size_t matched = 0;
    for (std::size_t i = 0; i < newFields.size(); ++i) {
        const FieldInfo& field = newFields[i];
        const std::size_t* source = findOld(field.name);
        if (source == nullptr) {
            for (const std::string& former : field.formerNames) {
                if (findOld(former) != nullptr)
                    return false; // a rename: the snapshot path reports it
            }
            plan.added.push_back(i);
            continue;
        }
        if (!sameShape(oldFields[*source].type, field.type))
            return false; // a conversion
        ++matched;
        plan.targets.push_back(i);
        plan.carries.push_back(planFieldCarry(from.fieldHandles[*source], oldFields[*source].type,
                                              to.fieldHandles[i], field.type));
    }
    return matched == carried.size(); // else old fields would be parked
}

} // namespace

std::unique_ptr<CarryPlan> planCarry(std::string_view className, const ScriptClassEntry* to,
                                     const ScriptClassEntry* from, bool bothLoaded) {
    auto plan = std::make_unique<CarryPlan>();
    plan->className = std::string(className);
    plan->to = to;
    plan->from = from;
    auto build = [&]() -> bool {
        if (!bothLoaded || to == nullptr || from == nullptr || to->info.name != className ||
            from->info.name != className) {
            return false;
        }
        const std::vector<std::size_t> carried = carriedFields(from->info.fields, *plan);
        if (!namesUnique(from->info.fields) || !namesUnique(to->info.fields))
            return false;
        return pairFields(*to, *from, carried, *plan);
    };
    plan->direct = build();
    if (!plan->direct) {
        plan->added.clear();
        plan->carries.clear();
        plan->targets.clear();
    }
    return plan;
}

const CarryPlan* CarryPlans::find(const ScriptDomain& from, std::string_view className) {
    if (from_ != &from) {
        plans_.clear(); // made against another generation
        from_ = &from;
    }
    const auto found = plans_.find(className);
    return found == plans_.end() ? nullptr : found->second.get();
}

const CarryPlan& CarryPlans::add(std::unique_ptr<CarryPlan> plan) {
    std::string name = plan->className;
    auto& slot = plans_[std::move(name)];
    slot = std::move(plan);
    return *slot;
}

void CarryPlans::clear() noexcept {
    plans_.clear();
    from_ = nullptr;
}

} // namespace scripthost::mono
