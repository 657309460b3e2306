#pragma once
// CarryPlans: how each script class's fields go from the previous generation straight
// into this one (ScriptDomain::carryFields).

#include "carry/field_carry.hpp"
#include "host/domain/script_domain.hpp"
#include "script_class_registry.hpp"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::mono {

/// A FieldCarryPlan with the field pairs it carries: a direct plan lists, for each field
/// carried, how (carries) and where it lands here (targets, indices in this class's
/// fields). Points at both generations' class entries: valid while both are loaded.
struct CarryPlan : FieldCarryPlan {
    std::vector<FieldCarry> carries;
    std::vector<std::size_t> targets;       ///< parallel to carries
    const ScriptClassEntry* to = nullptr;   ///< the class here
    const ScriptClassEntry* from = nullptr; ///< the class in the older generation
};

/// Works out the plan for `className` between its class in the older generation (`from`)
/// and here (`to`); either may be null (a class added or removed). Direct only when the
/// fields line up simply; anything else takes the snapshot path.
[[nodiscard]] std::unique_ptr<CarryPlan> planCarry(std::string_view className,
                                                   const ScriptClassEntry* to,
                                                   const ScriptClassEntry* from, bool bothLoaded);

/// The plans one generation made against the generation it replaces, one per class,
/// made on first request. Main thread only; clear() before either domain unloads.
class CarryPlans {
public:
    /// The plans were made against `from`; switching to another generation drops them.
    [[nodiscard]] bool madeAgainst(const ScriptDomain& from) const noexcept {
        return from_ == &from;
    }
    /// The cached plan for `className` against `from`, or nullptr (forgetting the plans
    /// of another generation first).
    [[nodiscard]] const CarryPlan* find(const ScriptDomain& from, std::string_view className);
    /// Keeps `plan` (made against the generation find() was last asked about).
    const CarryPlan& add(std::unique_ptr<CarryPlan> plan);
    void clear() noexcept;

private:
    const ScriptDomain* from_ = nullptr; // the generation the plans were made against
    /// By class name: a reload asks for every script slot's (2,000 classes: a scan per slot
    /// was quadratic).
    std::map<std::string, std::unique_ptr<CarryPlan>, std::less<>> plans_;
};

} // namespace scripthost::mono
