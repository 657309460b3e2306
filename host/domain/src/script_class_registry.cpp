#include "script_class_registry.hpp"

#include "field_types.hpp"
#include "runtime/mono_text.hpp"
#include "unity_message_methods.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/attrdefs.h>
#include <mono/metadata/reflection.h>
#include <mono/metadata/tokentype.h>
#include <spdlog/spdlog.h>

namespace scripthost::mono {

namespace {

using AttrInfo = std::unique_ptr<MonoCustomAttrInfo, decltype(&mono_custom_attrs_free)>;

// Whether a class below the script base declares a virtual `method`(1 arg): the most
// derived Update(float) below the script base, if any, overrides it.
bool overrides(MonoClass* klass, MonoClass* scriptBase, const char* method) {
    for (MonoClass* k = klass; k != nullptr && k != scriptBase; k = mono_class_get_parent(k)) {
        MonoMethod* m = mono_class_get_method_from_name(k, method, 1);
        if (m != nullptr && (mono_method_get_flags(m, nullptr) & MONO_METHOD_ATTR_VIRTUAL) != 0) {
            return true;
        }
    }
    return false;
}

// A [SerializeField] field of `declaring` as plain data, with its attributes' names.
FieldInfo describeSerializedField(MonoClass* declaring, MonoClassField* field,
                                  MonoCustomAttrInfo* attrs, const ScriptCoreClasses& core) {
    FieldInfo info;
    info.name = mono_field_get_name(field);
    info.declaringClass = mono::fullClassName(declaring);
    info.type = fieldTypeOf(mono_field_get_type(field), core.types);
    if (MonoArray* objects = attrs ? mono_custom_attrs_construct(attrs) : nullptr) {
        for (uintptr_t i = 0; i < mono_array_length(objects); ++i) {
            MonoObject* attribute = mono_array_get(objects, MonoObject*, i);
            MonoClass* ak = mono_object_get_class(attribute);
            if (ak == core.serializeFieldAttribute) {
                info.displayName = stringProperty(attribute, "DisplayName");
            } else if (ak == core.formerlySerializedAsAttribute) {
                info.formerNames.push_back(stringProperty(attribute, "OldName"));
            } else if (ak == core.hideInInspectorAttribute) {
                info.hidden = true;
            }
        }
    }
    if (info.displayName.empty()) {
        info.displayName = info.name;
    }
    return info;
}

// The serialised instance fields of the class and its bases, base classes first, by Unity's
// rules: [SerializeField] ones, and public ones that are not readonly and whose type the host
// can carry (a public field of another type is skipped, as Unity skips it; a [SerializeField]
// one stays in the schema as Unsupported, so the reload report names it). Statics, constants
// and [NonSerialized] fields never.
void collectSerializedFields(ScriptClassEntry& entry, const ScriptCoreClasses& core) {
    std::vector<MonoClass*> chain;
    for (MonoClass* k = entry.klass; k != nullptr && k != core.scriptBase;
         k = mono_class_get_parent(k)) {
        chain.push_back(k);
    }
    std::reverse(chain.begin(), chain.end()); // base classes first
    for (MonoClass* k : chain) {
        void* iter = nullptr;
        while (MonoClassField* field = mono_class_get_fields(k, &iter)) {
            const auto flags = mono_field_get_flags(field);
            if ((flags & (MONO_FIELD_ATTR_STATIC | MONO_FIELD_ATTR_LITERAL |
                          MONO_FIELD_ATTR_NOT_SERIALIZED)) != 0) {
                continue;
            }
            // Owned attribute info: freed on every path out of this iteration.
            AttrInfo attrs(mono_custom_attrs_from_field(k, field), &mono_custom_attrs_free);
            const bool marked =
                attrs && mono_custom_attrs_has_attr(attrs.get(), core.serializeFieldAttribute);
            const bool isPublic =
                (flags & MONO_FIELD_ATTR_FIELD_ACCESS_MASK) == MONO_FIELD_ATTR_PUBLIC;
            if (!marked && (!isPublic || (flags & MONO_FIELD_ATTR_INIT_ONLY) != 0))
                continue;
            FieldInfo info = describeSerializedField(k, field, attrs.get(), core);
            if (!marked && info.type.kind == ValueKind::Unsupported)
                continue;
            entry.info.fields.push_back(std::move(info));
            entry.fieldHandles.push_back(field);
        }
    }
}

// The [PreserveStatic] statics declared by the class itself.
void collectPreservedStatics(ScriptClassEntry& entry, const ScriptCoreClasses& core) {
    void* iter = nullptr;
    while (MonoClassField* field = mono_class_get_fields(entry.klass, &iter)) {
        const auto flags = mono_field_get_flags(field);
        if ((flags & MONO_FIELD_ATTR_STATIC) == 0 || (flags & MONO_FIELD_ATTR_LITERAL) != 0) {
            continue;
        }
        AttrInfo attrs(mono_custom_attrs_from_field(entry.klass, field), &mono_custom_attrs_free);
        if (!attrs || !mono_custom_attrs_has_attr(attrs.get(), core.preserveStaticAttribute)) {
            continue;
        }
        FieldInfo info;
        info.name = mono_field_get_name(field);
        info.displayName = info.name;
        info.declaringClass = entry.info.name;
        info.type = fieldTypeOf(mono_field_get_type(field), core.types);
        entry.info.preservedStatics.push_back(std::move(info));
        entry.staticHandles.push_back(field);
    }
}

std::unique_ptr<ScriptClassEntry> describeClass(MonoClass* klass, const ScriptCoreClasses& core) {
    auto entry = std::make_unique<ScriptClassEntry>();
    entry->klass = klass;
    entry->info.name = mono::fullClassName(klass);
    entry->info.overridesUpdate = overrides(klass, core.scriptBase, "Update");
    entry->info.overridesFixedUpdate = overrides(klass, core.scriptBase, "FixedUpdate");
    entry->info.unityMessages = declaredUnityMessages(klass, core.scriptBase);
    entry->info.uncalledMessages = uncalledUnityMessages(klass, core.scriptBase);
    entry->ctor = mono_class_get_method_from_name(klass, ".ctor", 0);
    collectSerializedFields(*entry, core);
    collectPreservedStatics(*entry, core);
    return entry;
}

} // namespace

bool ScriptClassEntry::prepareConstruction(MonoDomain* domain) const {
    if (vtable == nullptr)
        vtable = mono_class_vtable(domain, klass);
    return vtable != nullptr && ctor != nullptr;
}

Result<std::size_t> ScriptClassEntry::fieldIndex(std::string_view field) const {
    for (std::size_t i = info.fields.size(); i-- > 0;) { // most derived wins
        if (info.fields[i].name == field) {
            return i;
        }
    }
    return fail(fmt::format("{} has no serialized field named {}", info.name, field));
}

void ScriptClassRegistry::add(MonoImage* image, const ScriptCoreClasses& core,
                              std::string_view assemblyName) {
    const std::size_t before = entries_.size();
    const int rows = mono_image_get_table_rows(image, MONO_TABLE_TYPEDEF);
    std::vector<std::string> unloadable;
    for (int row = 2; row <= rows; ++row) { // row 1 is <Module>
        MonoClass* klass = mono_class_get(image, MONO_TOKEN_TYPE_DEF | row);
        if (klass == nullptr) {
            unloadable.push_back(fmt::format("type #{}", row));
            continue;
        }
        if (klass == core.scriptBase || !mono_class_is_subclass_of(klass, core.scriptBase, false)) {
            continue;
        }
        // Abstract classes and open generic definitions ("Base`1") cannot be instantiated.
        if ((mono_class_get_flags(klass) & MONO_TYPE_ATTR_ABSTRACT) != 0 ||
            std::string_view(mono_class_get_name(klass)).find('`') != std::string_view::npos) {
            continue;
        }
        entries_.push_back(describeClass(klass, core));
        entries_.back()->info.assembly = std::string(assemblyName);
    }
    if (!unloadable.empty()) {
        spdlog::warn("{}: {} types could not be loaded (missing references?)", assemblyName,
                     unloadable.size());
    }
    for (std::size_t i = before; i < entries_.size(); ++i) {
        for (const std::string& method : entries_[i]->info.uncalledMessages)
            spdlog::warn("{}: {} looks like a Unity message, but this host never calls it (it "
                         "has no physics, mouse, rendering or GUI events)",
                         assemblyName, method);
    }
}

Result<ScriptClassRegistry> ScriptClassRegistry::discover(const ScriptImages& scripts,
                                                          const ScriptCoreClasses& core) {
    ScriptClassRegistry registry;
    for (std::size_t i = 0; i < scripts.images.size(); ++i)
        registry.add(scripts.images[i], core, scripts.names.at(i));
    if (auto indexed = registry.index(); !indexed)
        return std::unexpected(indexed.error());
    return registry;
}

Result<void> ScriptClassRegistry::index() {
    std::stable_sort(entries_.begin(), entries_.end(),
                     [](const auto& a, const auto& b) { return a->info.name < b->info.name; });
    std::vector<std::string> clashes;
    for (std::size_t i = 1; i < entries_.size(); ++i) {
        const ScriptClassInfo& a = entries_[i - 1]->info;
        const ScriptClassInfo& b = entries_[i]->info;
        if (a.name == b.name)
            clashes.push_back(fmt::format("script class {} is in both {} and {}: a script is "
                                          "found by its full class name, so it may be in one "
                                          "assembly only",
                                          a.name, a.assembly, b.assembly));
    }
    if (!clashes.empty())
        return fail(fmt::format("{}", fmt::join(clashes, "; ")));
    infos_.clear();
    infosMade_ = false;
    byName_.clear();
    byShortName_.clear();
    withStatics_.clear();
    for (const auto& entry : entries_) {
        const std::string_view full = entry->info.name;
        byName_.emplace(full, entry.get());
        if (const auto cut = full.find_last_of(".+"); cut != std::string_view::npos) {
            auto& [found, count] = byShortName_[full.substr(cut + 1)];
            found = entry.get();
            ++count;
        }
        if (!entry->info.preservedStatics.empty())
            withStatics_.push_back(entry.get());
    }
    return {};
}

const std::vector<ScriptClassInfo>& ScriptClassRegistry::infos() const {
    if (!infosMade_) {
        infos_.reserve(entries_.size());
        for (const auto& entry : entries_)
            infos_.push_back(entry->info);
        infosMade_ = true;
    }
    return infos_;
}

const ScriptClassEntry* ScriptClassRegistry::find(std::string_view className) const noexcept {
    if (auto full = byName_.find(className); full != byName_.end())
        return full->second;
    // A short name, when exactly one class has it.
    if (auto found = byShortName_.find(className);
        found != byShortName_.end() && found->second.second == 1)
        return found->second.first;
    return nullptr;
}

std::string ScriptClassRegistry::explainMissing(std::string_view name, const ScriptImages& scripts,
                                                MonoClass* scriptBase) const {
    const std::string full(name);
    const auto dot = full.rfind('.');
    const std::string ns = dot == std::string::npos ? "" : full.substr(0, dot);
    const std::string shortName = dot == std::string::npos ? full : full.substr(dot + 1);
    for (MonoImage* image : scripts.images) {
        MonoClass* klass = mono_class_from_name(image, ns.c_str(), shortName.c_str());
        if (klass == nullptr)
            continue;
        if (!mono_class_is_subclass_of(klass, scriptBase, false)) {
            return fmt::format("class {} does not derive from UEngine.UMonoScriptComponent", full);
        }
        if ((mono_class_get_flags(klass) & MONO_TYPE_ATTR_ABSTRACT) != 0) {
            return fmt::format("class {} is abstract", full);
        }
    }
    std::string known;
    for (const auto& entry : entries_) {
        known += (known.empty() ? "" : ", ") + entry->info.name;
    }
    return fmt::format("no script class named {} in {} (script classes: {})", full,
                       fmt::join(scripts.names, ", "), known.empty() ? "none" : known);
}

void ScriptClassRegistry::clear() noexcept {
    byName_.clear();
    byShortName_.clear();
    withStatics_.clear();
    infosMade_ = false;
    entries_.clear();
    infos_.clear();
}

} // namespace scripthost::mono
