// ScriptDomain: reading and writing script instances' [SerializeField] fields.
#include "host/domain/script_domain.hpp"
#include "script_domain_impl.hpp"

#include <fmt/format.h>

namespace scripthost {

Result<Value> ScriptDomain::getField(ObjectId script, std::string_view field) {
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    const mono::ScriptClassEntry& entry = *(*inst)->entry;
    auto index = entry.fieldIndex(field);
    if (!index)
        return std::unexpected(index.error());
    impl_->domain.enter();
    return mono::readField((*inst)->handle.target(), entry.fieldHandles[*index],
                           entry.info.fields[*index].type, impl_->marshal());
}

Result<void> ScriptDomain::setField(ObjectId script, std::string_view field, const Value& value) {
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    auto index = (*inst)->entry->fieldIndex(field);
    if (!index)
        return std::unexpected(index.error());
    return setFieldAt(script, *index, value);
}

Result<void> ScriptDomain::setFieldAt(ObjectId script, std::size_t index, const Value& value) {
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    const mono::ScriptClassEntry& entry = *(*inst)->entry;
    if (index >= entry.info.fields.size()) {
        return fail(fmt::format("{} has no field #{}", entry.info.name, index));
    }
    impl_->domain.enter();
    auto written = mono::writeField((*inst)->handle.target(), entry.fieldHandles[index],
                                    entry.info.fields[index].type, value, impl_->marshal());
    if (!written) {
        return fail(fmt::format("{}.{}: {}", entry.info.name, entry.info.fields[index].name,
                                written.error().message));
    }
    return {};
}

Result<void> ScriptDomain::readFieldsAt(ObjectId script, std::span<const std::uint32_t> indices,
                                        std::span<Value> out) {
    auto found = findInstance(script);
    if (!found)
        return std::unexpected(found.error());
    return readFieldsAt(*found, indices, out);
}

Result<ScriptDomain::InstanceRef> ScriptDomain::findInstance(ObjectId script) {
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    return InstanceRef{*inst};
}

std::uint64_t ScriptDomain::instancesVersion() const noexcept {
    return impl_->instances.removals();
}

Result<void> ScriptDomain::readFieldsAt(InstanceRef script, std::span<const std::uint32_t> indices,
                                        std::span<Value> out) {
    if (out.size() != indices.size())
        return fail("readFieldsAt: as many values as fields, please");
    if (script.instance == nullptr || !impl_->domain.loaded())
        return fail("readFieldsAt: no instance");
    const auto& instance = *static_cast<const mono::ScriptInstance*>(script.instance);
    const mono::ScriptClassEntry& entry = *instance.entry;
    impl_->domain.enter();
    MonoObject* object = instance.handle.target();
    const auto context = impl_->marshal();
    for (std::size_t i = 0; i < indices.size(); ++i) {
        const std::uint32_t index = indices[i];
        if (index >= entry.info.fields.size())
            return fail(fmt::format("{} has no field #{}", entry.info.name, index));
        auto value = mono::readField(object, entry.fieldHandles[index],
                                     entry.info.fields[index].type, context);
        if (!value) {
            return fail(fmt::format("{}.{}: {}", entry.info.name, entry.info.fields[index].name,
                                    value.error().message));
        }
        out[i] = std::move(*value);
    }
    return {};
}

Result<std::vector<FieldSnapshot>> ScriptDomain::readFields(ObjectId script,
                                                            std::vector<std::string>* skipped) {
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    impl_->domain.enter();
    const mono::ScriptClassEntry& entry = *(*inst)->entry;
    const auto context = impl_->marshal();
    std::vector<FieldSnapshot> fields;
    fields.reserve(entry.info.fields.size());
    for (std::size_t i = 0; i < entry.info.fields.size(); ++i) {
        const FieldInfo& info = entry.info.fields[i];
        if (info.type.kind == ValueKind::Unsupported) {
            if (skipped)
                skipped->push_back(info.name + " (" + info.type.typeName + ")");
            continue;
        }
        auto value =
            mono::readField((*inst)->handle.target(), entry.fieldHandles[i], info.type, context);
        if (!value) {
            return fail(
                fmt::format("{}.{}: {}", entry.info.name, info.name, value.error().message));
        }
        fields.push_back(FieldSnapshot{info.name, info.type, std::move(*value)});
    }
    return fields;
}

} // namespace scripthost
