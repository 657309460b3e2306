// ScriptDomain: carrying running behaviour across a reload — coroutines (coroutine_carry.hpp)
// and the delegates scripts' fields hold (ScriptCore's UEngine.Internal.DelegateCarry).
#include "host/script_domain.hpp"
#include "mono/checked_call.hpp"
#include "mono/coroutine_carry.hpp"
#include "mono/mono_text.hpp"
#include "mono/script_domain_impl.hpp"

#include <charconv>
#include <fmt/format.h>

namespace scripthost {

namespace {

mono::CarrySide sideOf(const ScriptDomain::Impl& impl) {
    return {impl.domain.get(), impl.coreImage, impl.marshal(), &impl.core.types};
}

std::string classOf(const mono::ScriptInstances& instances, ObjectId script) {
    const mono::ScriptInstance* instance = instances.find(script);
    return instance ? instance->entry->info.name : std::string("script");
}

MonoMethod* delegateCarryMethod(MonoImage* core, const char* name) {
    MonoClass* carry = mono_class_from_name(core, "UEngine.Internal", "DelegateCarry");
    return carry ? mono_class_get_method_from_name(carry, name, name[0] == 'E' ? 0 : 1) : nullptr;
}

} // namespace

Result<std::vector<CoroutineOutcome>> ScriptDomain::carryCoroutines(const ScriptDomain& from) {
    std::vector<CoroutineOutcome> outcomes;
    if (!impl_->domain.loaded() || !from.impl_->domain.loaded())
        return fail("carrying coroutines needs both generations loaded");
    auto carried = mono::carryCoroutines(sideOf(*from.impl_), sideOf(*impl_));
    if (!carried)
        return std::unexpected(carried.error());
    outcomes.reserve(carried->size());
    for (mono::CarriedCoroutine& c : *carried) {
        outcomes.push_back({c.script, classOf(from.impl_->instances, c.script), std::move(c.method),
                            c.kind, std::move(c.reason)});
    }
    return outcomes;
}

Result<std::vector<DelegateOutcome>> ScriptDomain::carryDelegates(const ScriptDomain& from) {
    std::vector<DelegateOutcome> outcomes;
    if (!impl_->domain.loaded() || !from.impl_->domain.loaded())
        return fail("carrying delegates needs both generations loaded");
    MonoMethod* exportMethod = delegateCarryMethod(from.impl_->coreImage, "Export");
    MonoMethod* importMethod = delegateCarryMethod(impl_->coreImage, "Import");
    if (exportMethod == nullptr || importMethod == nullptr)
        return fail("ScriptCore has no UEngine.Internal.DelegateCarry (Export, Import)");
    auto exported = mono::invokeChecked(from.impl_->domain.get(), exportMethod, nullptr,
                                        "listing the delegates to carry: ");
    if (!exported)
        return std::unexpected(exported.error());
    const std::string text = mono::toUtf8(reinterpret_cast<MonoString*>(*exported));
    if (text.empty())
        return outcomes;
    auto argument = mono::newString(impl_->domain.get(), text);
    if (!argument)
        return std::unexpected(argument.error());
    void* args[] = {*argument};
    auto imported = mono::invokeChecked(impl_->domain.get(), importMethod, nullptr, args,
                                        "rebinding the delegates: ");
    if (!imported)
        return std::unexpected(imported.error());
    // One line per entry: "script field shown outcome reason".
    const std::string lines = mono::toUtf8(reinterpret_cast<MonoString*>(*imported));
    std::string_view rest = lines;
    while (!rest.empty()) {
        const std::size_t end = std::min(rest.find('\n'), rest.size());
        const std::string_view line = rest.substr(0, end);
        rest.remove_prefix(std::min(end + 1, rest.size()));
        std::vector<std::string_view> parts;
        for (std::string_view part = line;;) {
            const std::size_t tab = part.find('\t');
            parts.push_back(part.substr(0, tab));
            if (tab == std::string_view::npos)
                break;
            part.remove_prefix(tab + 1);
        }
        std::uint64_t packed = 0;
        if (parts.size() != 5 ||
            std::from_chars(parts[0].data(), parts[0].data() + parts[0].size(), packed).ec !=
                std::errc{})
            return fail(fmt::format("ScriptCore described a rebound delegate as \"{}\"", line));
        const ObjectId script = ObjectId::unpack(packed);
        outcomes.push_back({script, classOf(from.impl_->instances, script), std::string(parts[1]),
                            std::string(parts[2]),
                            parts[3] == "rebound" ? DelegateOutcome::Kind::Rebound
                                                  : DelegateOutcome::Kind::Dropped,
                            std::string(parts[4])});
    }
    return outcomes;
}

} // namespace scripthost
