#include "host/script_domain.hpp"

#include "host/script_context.hpp"
#include "host/script_watchdog.hpp"
#include "host/value_conversion.hpp"
#include "mono/domain_unloader.hpp"
#include "mono/field_access.hpp"
#include "mono/forbidden_calls.hpp"
#include "mono/gc_handle.hpp"
#include "mono/managed_exception.hpp"
#include "mono/mono_text.hpp"
#include "mono/object_bridge.hpp"
#include "mono/runtime_registry.hpp"

#include <algorithm>
#include <atomic>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <memory>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/assembly.h>
#include <mono/metadata/attrdefs.h>
#include <mono/metadata/class.h>
#include <mono/metadata/debug-helpers.h>
#include <mono/metadata/mono-debug.h>
#include <mono/metadata/mono-gc.h>
#include <mono/metadata/reflection.h>
#include <mono/metadata/tokentype.h>
#include <spdlog/spdlog.h>
#include <unordered_map>

namespace scripthost {

using mono::GcHandle;

namespace {

// Unmanaged thunks of the managed dispatcher (UEngine.Internal.ScriptRuntime). Thunks
// take the managed arguments in order and a non-null MonoException** last.
using AttachThunk = void (*)(MonoObject*, std::uint64_t, std::uint64_t, MonoBoolean, std::int32_t,
                             MonoException**);
using DetachThunk = void (*)(std::uint64_t, MonoException**);
using SetEnabledThunk = void (*)(std::uint64_t, MonoBoolean, MonoException**);
using RunUpdateThunk = void (*)(float, double, std::int64_t, MonoException**);
using RunFixedUpdateThunk = void (*)(float, double, MonoException**);
using CountScheduledThunk = std::int32_t (*)(std::int32_t, MonoException**);
using AfterReloadThunk = MonoObject* (*)(std::uint64_t*, MonoException**);
using ClassConstructorThunk = MonoObject* (*)(MonoObject*, MonoException**);
using ReserveThunk = void (*)(std::int32_t, MonoException**);

std::atomic<std::size_t> g_liveDomains{0};

// An unmanaged thunk of a method, made when first asked for.
template <typename Fn> struct LazyThunk {
    MonoMethod* method = nullptr;
    Fn fn = nullptr;
    Fn get() {
        if (fn == nullptr)
            fn = reinterpret_cast<Fn>(mono_method_get_unmanaged_thunk(method));
        return fn;
    }
};

std::string fullNameOf(MonoClass* klass) {
    std::string name = mono_class_get_name(klass);
    if (MonoClass* outer = mono_class_get_nesting_type(klass)) {
        return fullNameOf(outer) + "+" + name;
    }
    const std::string ns = mono_class_get_namespace(klass);
    return ns.empty() ? name : ns + "." + name;
}

// The dispatcher's message flags (ScriptRuntime.Messages).
std::int32_t messagesOf(const ScriptClassInfo& info) {
    return (info.overridesUpdate ? 1 : 0) | (info.overridesFixedUpdate ? 2 : 0);
}

std::string exceptionText(MonoObject* exception) {
    mono::ManagedException described = mono::describeException(exception);
    if (described.type == "System.Threading.ThreadAbortException") {
        return "stopped by the watchdog: it ran past its time budget; where it was: " +
               described.text;
    }
    return described.text;
}

// Success, or the exception a thunk reported, prefixed with what was being done.
Result<void> unlessThrown(const std::string& what, MonoException* exc) {
    if (exc == nullptr) {
        return {};
    }
    return fail(what + exceptionText(reinterpret_cast<MonoObject*>(exc)));
}

// Reads a string property of an attribute object (a trivial managed getter).
std::string stringProperty(MonoObject* object, const char* property) {
    MonoClass* klass = mono_object_get_class(object);
    MonoProperty* prop = mono_class_get_property_from_name(klass, property);
    if (prop == nullptr) {
        return {};
    }
    MonoObject* exc = nullptr;
    MonoObject* value = mono_property_get_value(prop, object, nullptr, &exc);
    if (exc != nullptr || value == nullptr) {
        return {};
    }
    return mono::toUtf8(reinterpret_cast<MonoString*>(value));
}

} // namespace

struct ScriptDomain::Impl {
    struct ClassEntry {
        MonoClass* klass = nullptr;
        ScriptClassInfo info;
        std::vector<MonoClassField*> fieldHandles;  // parallel to info.fields
        std::vector<MonoClassField*> staticHandles; // parallel to info.preservedStatics
        MonoMethod* ctor = nullptr;                 // the parameterless constructor, if any
        // Found on first use (or by warmUp): a reload creates every instance in one frame.
        MonoVTable* vtable = nullptr;
    };
    // A FieldCarryPlan with the field pairs it carries.
    struct CarryEntry : FieldCarryPlan {
        std::vector<mono::FieldCarry> carries;
        std::vector<std::size_t> targets; // parallel: the carried field's index here
        const ClassEntry* to = nullptr;   // the class here
        const ClassEntry* from = nullptr; // the class in the older generation
    };
    struct Instance {
        GcHandle handle;
        ObjectId entity;
        const ClassEntry* entry = nullptr;
    };

    std::uint32_t generation = 0;
    std::string name;
    MonoDomain* domain = nullptr;
    MonoImage* coreImage = nullptr;
    MonoImage* scriptsImage = nullptr;
    std::string scriptsAssemblyName;

    MonoClass* scriptBase = nullptr;
    MonoClass* serializeFieldAttribute = nullptr;
    MonoClass* formerlySerializedAsAttribute = nullptr;
    MonoClass* nativeComponentAttribute = nullptr;
    mono::TypeClasses types;
    std::unique_ptr<mono::ObjectBridge> bridge;

    // The dispatcher's entry points. Each thunk is made on first use (or by warmUp): making
    // one compiles a wrapper, milliseconds for all of them, which the load stage of a
    // reload should not pay.
    LazyThunk<AttachThunk> attach;
    LazyThunk<DetachThunk> detach;
    LazyThunk<SetEnabledThunk> setEnabled;
    LazyThunk<RunUpdateThunk> runUpdate;
    LazyThunk<RunFixedUpdateThunk> runFixedUpdate;
    LazyThunk<CountScheduledThunk> countScheduled;
    LazyThunk<AfterReloadThunk> afterReload;
    LazyThunk<ClassConstructorThunk> classConstructor;
    LazyThunk<ReserveThunk> reserve;
    std::size_t warmStep = 0; // how far warmUp has come
    MonoClass* preserveStaticAttribute = nullptr;

    mono::ProxyClasses proxyClasses; // moved into the bridge once the scripts are loaded
    std::vector<std::unique_ptr<ClassEntry>> classes; // sorted by name
    std::vector<ScriptClassInfo> classInfos;          // copies for the public view
    std::unordered_map<ObjectId, Instance> instances;
    const ScriptDomain* carryFrom = nullptr; // the generation carryPlans were made against
    std::vector<std::unique_ptr<CarryEntry>> carryPlans;

    ~Impl() {
        if (domain != nullptr) {
            if (auto r = unload(); !r) {
                spdlog::warn("{}", r.error().message);
            }
        }
    }

    void enter() const {
        if (mono_domain_get() != domain) {
            mono_domain_set(domain, false);
        }
    }

    Result<MonoImage*> load(const AssemblyFile& file, bool isScriptCore) {
        const std::string imageName = name + "/" + file.name;
        MonoImageOpenStatus status = MONO_IMAGE_OK;
        MonoImage* image = mono_image_open_from_data_with_name(
            const_cast<char*>(file.image.data()), static_cast<std::uint32_t>(file.image.size()),
            /*need_copy*/ 1, &status, /*refonly*/ 0, imageName.c_str());
        if (image == nullptr || status != MONO_IMAGE_OK) {
            return fail(fmt::format("{} is not a valid assembly: {}", file.path.string(),
                                    mono_image_strerror(status)));
        }
        if (!file.symbols.empty()) {
            mono_debug_open_image_from_memory(
                image, reinterpret_cast<const mono_byte*>(file.symbols.data()),
                static_cast<int>(file.symbols.size()));
        }
        MonoAssembly* assembly = mono_assembly_load_from_full(image, imageName.c_str(), &status, 0);
        mono_image_close(image); // the assembly keeps its own reference
        if (assembly == nullptr || status != MONO_IMAGE_OK) {
            return fail(
                fmt::format("cannot load {}: {}", file.path.string(), mono_image_strerror(status)));
        }
        mono::registerAssembly(domain, assembly, isScriptCore);
        return mono_assembly_get_image(assembly);
    }

    Result<void> bindScriptCore() {
        auto need = [&](const char* ns, const char* n) -> Result<MonoClass*> {
            MonoClass* k = mono_class_from_name(coreImage, ns, n);
            if (k == nullptr) {
                return fail(fmt::format("ScriptCore has no class {}.{} (is ScriptCore.dll from "
                                        "another version?)",
                                        ns, n));
            }
            return k;
        };
        auto runtime = need("UEngine.Internal", "ScriptRuntime");
        auto base = need("UEngine", "UMonoScriptComponent");
        auto serialize = need("UEngine", "SerializeFieldAttribute");
        auto formerly = need("UEngine", "FormerlySerializedAsAttribute");
        auto v2 = need("UEngine", "Vector2");
        auto v3 = need("UEngine", "Vector3");
        auto v4 = need("UEngine", "Vector4");
        auto q = need("UEngine", "Quaternion");
        auto object = need("UEngine", "UObject");
        auto entity = need("UEngine", "UEntity");
        auto component = need("UEngine", "UComponent");
        auto nativeComponent = need("UEngine", "NativeComponentAttribute");
        for (auto* r : {&runtime, &base, &serialize, &formerly, &v2, &v3, &v4, &q, &object, &entity,
                        &component, &nativeComponent}) {
            if (!*r)
                return std::unexpected(r->error());
        }
        scriptBase = *base;
        serializeFieldAttribute = *serialize;
        formerlySerializedAsAttribute = *formerly;
        nativeComponentAttribute = *nativeComponent;
        types = {*v2, *v3, *v4, *q, *entity, *component, *base, *serialize};
        proxyClasses.uobject = *object;
        proxyClasses.entity = *entity;
        proxyClasses.component = *component;
        proxyClasses.nativeId = mono_class_get_field_from_name(*object, "m_NativeId");
        proxyClasses.entityId = mono_class_get_field_from_name(*component, "m_EntityId");
        if (proxyClasses.nativeId == nullptr || proxyClasses.entityId == nullptr) {
            return fail("ScriptCore's UObject/UComponent lack their id fields");
        }
        collectComponentKinds(coreImage);

        auto method = [&](const char* name, int params) -> Result<MonoMethod*> {
            MonoMethod* m = mono_class_get_method_from_name(*runtime, name, params);
            if (m == nullptr) {
                return fail(
                    fmt::format("ScriptCore's dispatcher has no {}({} args)", name, params));
            }
            return m;
        };
        auto a = method("Attach", 5);
        auto d = method("Detach", 1);
        auto e = method("SetEnabled", 2);
        auto u = method("RunUpdate", 3);
        auto f = method("RunFixedUpdate", 2);
        auto c = method("CountScheduled", 1);
        auto ar = method("RunAfterReload", 1);
        auto cc = method("RunClassConstructor", 1);
        auto rs = method("Reserve", 1);
        for (auto* r : {&a, &d, &e, &u, &f, &c, &ar, &cc, &rs}) {
            if (!*r)
                return std::unexpected(r->error());
        }
        attach = {*a};
        detach = {*d};
        setEnabled = {*e};
        runUpdate = {*u};
        runFixedUpdate = {*f};
        countScheduled = {*c};
        afterReload = {*ar};
        classConstructor = {*cc};
        reserve = {*rs};
        preserveStaticAttribute =
            mono_class_from_name(coreImage, "UEngine", "PreserveStaticAttribute");
        if (preserveStaticAttribute == nullptr) {
            return fail("ScriptCore has no UEngine.PreserveStaticAttribute");
        }
        return {};
    }

    // Classes marked [NativeComponent("Kind")] are the proxy classes of that kind.
    void collectComponentKinds(MonoImage* image) {
        const int rows = mono_image_get_table_rows(image, MONO_TABLE_TYPEDEF);
        for (int row = 2; row <= rows; ++row) {
            MonoClass* klass = mono_class_get(image, MONO_TOKEN_TYPE_DEF | row);
            if (klass == nullptr || !mono_class_is_subclass_of(klass, types.component, false)) {
                continue;
            }
            std::unique_ptr<MonoCustomAttrInfo, decltype(&mono_custom_attrs_free)> attrs(
                mono_custom_attrs_from_class(klass), &mono_custom_attrs_free);
            if (!attrs || !mono_custom_attrs_has_attr(attrs.get(), nativeComponentAttribute)) {
                continue;
            }
            if (MonoObject* attribute =
                    mono_custom_attrs_get_attr(attrs.get(), nativeComponentAttribute)) {
                const std::string kind = stringProperty(attribute, "Kind");
                if (!kind.empty()) {
                    proxyClasses.componentKinds[kind] = klass;
                }
            }
        }
    }

    Result<void> discoverScriptClasses() {
        const int rows = mono_image_get_table_rows(scriptsImage, MONO_TABLE_TYPEDEF);
        std::vector<std::string> unloadable;
        for (int row = 2; row <= rows; ++row) { // row 1 is <Module>
            MonoClass* klass = mono_class_get(scriptsImage, MONO_TOKEN_TYPE_DEF | row);
            if (klass == nullptr) {
                unloadable.push_back(fmt::format("type #{}", row));
                continue;
            }
            if (klass == scriptBase || !mono_class_is_subclass_of(klass, scriptBase, false)) {
                continue;
            }
            // Abstract classes and open generic definitions ("Base`1") cannot be instantiated.
            if ((mono_class_get_flags(klass) & MONO_TYPE_ATTR_ABSTRACT) != 0 ||
                std::string_view(mono_class_get_name(klass)).find('`') != std::string_view::npos) {
                continue;
            }
            auto entry = std::make_unique<ClassEntry>();
            entry->klass = klass;
            entry->info.name = fullNameOf(klass);
            describeClass(*entry);
            classes.push_back(std::move(entry));
        }
        if (!unloadable.empty()) {
            spdlog::warn("{}: {} types could not be loaded (missing references?)",
                         scriptsAssemblyName, unloadable.size());
        }
        std::sort(classes.begin(), classes.end(),
                  [](const auto& a, const auto& b) { return a->info.name < b->info.name; });
        for (const auto& entry : classes) {
            classInfos.push_back(entry->info);
        }
        return {};
    }

    bool overrides(MonoClass* klass, const char* method) const {
        // The most derived Update(float) below the script base, if any, overrides it.
        for (MonoClass* k = klass; k != nullptr && k != scriptBase; k = mono_class_get_parent(k)) {
            MonoMethod* m = mono_class_get_method_from_name(k, method, 1);
            if (m != nullptr &&
                (mono_method_get_flags(m, nullptr) & MONO_METHOD_ATTR_VIRTUAL) != 0) {
                return true;
            }
        }
        return false;
    }

    void describeClass(ClassEntry& entry) {
        entry.info.overridesUpdate = overrides(entry.klass, "Update");
        entry.info.overridesFixedUpdate = overrides(entry.klass, "FixedUpdate");
        entry.ctor = mono_class_get_method_from_name(entry.klass, ".ctor", 0);
        std::vector<MonoClass*> chain;
        for (MonoClass* k = entry.klass; k != nullptr && k != scriptBase;
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
                std::unique_ptr<MonoCustomAttrInfo, decltype(&mono_custom_attrs_free)> attrs(
                    mono_custom_attrs_from_field(k, field), &mono_custom_attrs_free);
                if (!attrs || !mono_custom_attrs_has_attr(attrs.get(), serializeFieldAttribute)) {
                    continue;
                }
                FieldInfo info;
                info.name = mono_field_get_name(field);
                info.declaringClass = fullNameOf(k);
                info.type = mono::fieldTypeOf(mono_field_get_type(field), types);
                if (MonoArray* objects = mono_custom_attrs_construct(attrs.get())) {
                    for (uintptr_t i = 0; i < mono_array_length(objects); ++i) {
                        MonoObject* attribute = mono_array_get(objects, MonoObject*, i);
                        MonoClass* ak = mono_object_get_class(attribute);
                        if (ak == serializeFieldAttribute) {
                            info.displayName = stringProperty(attribute, "DisplayName");
                        } else if (ak == formerlySerializedAsAttribute) {
                            info.formerNames.push_back(stringProperty(attribute, "OldName"));
                        }
                    }
                }
                if (info.displayName.empty()) {
                    info.displayName = info.name;
                }
                entry.info.fields.push_back(std::move(info));
                entry.fieldHandles.push_back(field);
            }
        }
        // [PreserveStatic] statics declared by the class itself.
        void* iter = nullptr;
        while (MonoClassField* field = mono_class_get_fields(entry.klass, &iter)) {
            const auto flags = mono_field_get_flags(field);
            if ((flags & MONO_FIELD_ATTR_STATIC) == 0 || (flags & MONO_FIELD_ATTR_LITERAL) != 0) {
                continue;
            }
            std::unique_ptr<MonoCustomAttrInfo, decltype(&mono_custom_attrs_free)> attrs(
                mono_custom_attrs_from_field(entry.klass, field), &mono_custom_attrs_free);
            if (!attrs || !mono_custom_attrs_has_attr(attrs.get(), preserveStaticAttribute)) {
                continue;
            }
            FieldInfo info;
            info.name = mono_field_get_name(field);
            info.displayName = info.name;
            info.declaringClass = entry.info.name;
            info.type = mono::fieldTypeOf(mono_field_get_type(field), types);
            entry.info.preservedStatics.push_back(std::move(info));
            entry.staticHandles.push_back(field);
        }
    }

    mono::MarshalContext marshal() const {
        const ScriptContext* context = ScriptContext::current();
        return {domain, context ? context->world : nullptr, bridge.get()};
    }

    const ClassEntry* findClass(std::string_view className) const {
        const ClassEntry* shortMatch = nullptr;
        int shortMatches = 0;
        for (const auto& entry : classes) {
            const std::string& full = entry->info.name;
            if (full == className) {
                return entry.get();
            }
            const auto cut = full.find_last_of(".+");
            if (cut != std::string::npos && std::string_view(full).substr(cut + 1) == className) {
                shortMatch = entry.get();
                ++shortMatches;
            }
        }
        return shortMatches == 1 ? shortMatch : nullptr;
    }

    // The vtable instantiate needs; false if the class cannot load.
    bool prepareConstruction(ClassEntry& entry) const {
        if (entry.vtable == nullptr)
            entry.vtable = mono_class_vtable(domain, entry.klass);
        return entry.vtable != nullptr && entry.ctor != nullptr;
    }

    const Instance* findInstance(ObjectId script) const {
        auto it = instances.find(script);
        return it == instances.end() ? nullptr : &it->second;
    }

    Result<Instance*> instance(ObjectId script) {
        if (domain == nullptr) {
            return fail(fmt::format("generation {} is unloaded", generation));
        }
        auto it = instances.find(script);
        if (it == instances.end()) {
            return fail(fmt::format("no script instance {} in generation {}", script.toString(),
                                    generation));
        }
        return &it->second;
    }

    Result<std::size_t> fieldIndex(const ClassEntry& entry, std::string_view field) const {
        for (std::size_t i = entry.info.fields.size(); i-- > 0;) { // most derived wins
            if (entry.info.fields[i].name == field) {
                return i;
            }
        }
        return fail(
            fmt::format("{} has no [SerializeField] field named {}", entry.info.name, field));
    }

    // Drops everything this generation holds in its domain and returns the domain, which
    // nothing may touch again but an unload; nullptr when already unloaded.
    MonoDomain* release() {
        if (domain == nullptr) {
            return nullptr;
        }
        MonoDomain* dying = domain;
        // Never unload the current domain: switch to the root first.
        mono_domain_set(mono::rootDomain(), true);
        // Free this generation's handles and forget every cached pointer into it.
        instances.clear();
        classes.clear();
        classInfos.clear();
        attach = {};
        detach = {};
        setEnabled = {};
        runUpdate = {};
        runFixedUpdate = {};
        countScheduled = {};
        afterReload = {};
        classConstructor = {};
        reserve = {};
        carryPlans.clear();
        carryFrom = nullptr;
        preserveStaticAttribute = nullptr;
        coreImage = scriptsImage = nullptr;
        bridge.reset(); // frees every proxy handle of this generation
        proxyClasses = {};
        scriptBase = serializeFieldAttribute = formerlySerializedAsAttribute = nullptr;
        nativeComponentAttribute = nullptr;
        types = {};
        mono::forgetDomain(dying);
        domain = nullptr;
        g_liveDomains.fetch_sub(1, std::memory_order_relaxed);
        return dying;
    }

    Result<void> unload() {
        MonoDomain* dying = release();
        if (dying == nullptr) {
            return {};
        }
        // One unload at a time: finish the ones in the background first.
        mono::DomainUnloader::instance().waitIdle(std::chrono::steady_clock::time_point::max());
        MonoObject* exc = nullptr;
        mono_domain_try_unload(dying, &exc);
        if (exc != nullptr) {
            return fail(
                fmt::format("unloading generation {} failed: {}", generation, exceptionText(exc)));
        }
        return {};
    }
};

ScriptDomain::ScriptDomain(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ScriptDomain::~ScriptDomain() = default;

Result<std::unique_ptr<ScriptDomain>> ScriptDomain::create(std::uint32_t generation,
                                                           const AssemblyFile& scriptCore,
                                                           const AssemblyFile& scripts) {
    if (mono::rootDomain() == nullptr) {
        return fail("the Mono runtime is not running (call MonoRuntime::start first)");
    }
    // Image names are a process-wide cache: a reused name can hand back old code, so
    // every domain gets a name no other domain of this process ever had.
    static std::atomic<std::uint64_t> serial{0};
    auto impl = std::make_unique<Impl>();
    impl->generation = generation;
    impl->name = fmt::format("scripthost-gen{}-{}", generation, ++serial);
    impl->domain = mono_domain_create_appdomain(impl->name.data(), nullptr);
    if (impl->domain == nullptr) {
        return fail("cannot create app domain " + impl->name);
    }
    g_liveDomains.fetch_add(1, std::memory_order_relaxed); // counted down by unload
    mono_domain_set(impl->domain, false);
    mono_domain_set_config(impl->domain, ".", "");

    // ScriptCore first: the scripts assembly's reference to it then resolves in this domain.
    auto core = impl->load(scriptCore, true);
    if (!core)
        return std::unexpected(core.error());
    impl->coreImage = *core;
    if (auto bound = impl->bindScriptCore(); !bound)
        return std::unexpected(bound.error());

    auto image = impl->load(scripts, false);
    if (!image)
        return std::unexpected(image.error());
    impl->scriptsImage = *image;
    if (auto forbidden = mono::forbiddenCalls(impl->scriptsImage); !forbidden.empty()) {
        return fail(fmt::format("{} calls {}, which scripts may not call: it would let a script "
                                "that runs away cancel the watchdog's abort",
                                scripts.path.filename().string(), fmt::join(forbidden, ", ")));
    }
    impl->scriptsAssemblyName = scripts.name;
    impl->collectComponentKinds(impl->scriptsImage); // game modules' scripts may add kinds
    Impl* self = impl.get();
    impl->bridge = std::make_unique<mono::ObjectBridge>(
        impl->domain, std::move(impl->proxyClasses), [self](ObjectId id) -> MonoObject* {
            auto it = self->instances.find(id);
            return it == self->instances.end() ? nullptr : it->second.handle.target();
        });
    mono::registerBridge(impl->domain, impl->bridge.get());
    if (auto found = impl->discoverScriptClasses(); !found)
        return std::unexpected(found.error());
    return std::unique_ptr<ScriptDomain>(new ScriptDomain(std::move(impl)));
}

std::uint32_t ScriptDomain::generation() const noexcept {
    return impl_->generation;
}

const std::vector<ScriptClassInfo>& ScriptDomain::scriptClasses() const noexcept {
    return impl_->classInfos;
}

const ScriptClassInfo* ScriptDomain::findScriptClass(std::string_view name) const noexcept {
    const Impl::ClassEntry* entry = impl_->findClass(name);
    return entry ? &entry->info : nullptr;
}

std::string ScriptDomain::explainMissingClass(std::string_view name) const {
    if (impl_->domain == nullptr) {
        return "the script domain is unloaded";
    }
    impl_->enter();
    const std::string full(name);
    const auto dot = full.rfind('.');
    const std::string ns = dot == std::string::npos ? "" : full.substr(0, dot);
    const std::string shortName = dot == std::string::npos ? full : full.substr(dot + 1);
    if (MonoClass* klass =
            mono_class_from_name(impl_->scriptsImage, ns.c_str(), shortName.c_str())) {
        if (!mono_class_is_subclass_of(klass, impl_->scriptBase, false)) {
            return fmt::format("class {} does not derive from UEngine.UMonoScriptComponent", full);
        }
        if ((mono_class_get_flags(klass) & MONO_TYPE_ATTR_ABSTRACT) != 0) {
            return fmt::format("class {} is abstract", full);
        }
    }
    std::string known;
    for (const auto& entry : impl_->classes) {
        known += (known.empty() ? "" : ", ") + entry->info.name;
    }
    return fmt::format("no script class named {} in {} (script classes: {})", full,
                       impl_->scriptsAssemblyName, known.empty() ? "none" : known);
}

Result<void> ScriptDomain::instantiate(ObjectId script, ObjectId entity,
                                       std::string_view className) {
    ScriptWatchdog::Scope watched("a script constructor");
    if (impl_->domain == nullptr) {
        return fail(fmt::format("generation {} is unloaded", impl_->generation));
    }
    const Impl::ClassEntry* entry = impl_->findClass(className);
    if (entry == nullptr) {
        return fail(explainMissingClass(className));
    }
    if (impl_->instances.contains(script)) {
        return fail(fmt::format("script {} already has an instance", script.toString()));
    }
    impl_->enter();
    if (entry->ctor == nullptr) {
        return fail(fmt::format("{} needs a parameterless constructor", entry->info.name));
    }
    auto* mutableEntry = const_cast<Impl::ClassEntry*>(entry); // caches only
    if (!impl_->prepareConstruction(*mutableEntry)) {
        return fail(fmt::format("{} cannot be loaded", entry->info.name));
    }
    MonoObject* object = mono_object_new_specific(entry->vtable);
    if (object == nullptr) {
        return fail(fmt::format("cannot allocate a {}", entry->info.name));
    }
    // Through mono_runtime_invoke, not an unmanaged thunk: the watchdog's abort cannot
    // land in code a thunk called unless a managed handler is on the stack (measured), and
    // the runtime-invoke wrapper has one. A constructor is called once per instance.
    MonoObject* exc = nullptr;
    mono_runtime_invoke(entry->ctor, object, nullptr, &exc);
    if (exc != nullptr) {
        return fail(
            fmt::format("the constructor of {} threw: {}", entry->info.name, exceptionText(exc)));
    }
    impl_->instances.emplace(script, Impl::Instance{GcHandle::strong(object), entity, entry});
    return {};
}

Result<void> ScriptDomain::attach(ObjectId script, bool runInitialize) {
    ScriptWatchdog::Scope watched("Initialize");
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    impl_->enter();
    MonoException* exc = nullptr;
    impl_->attach.get()((*inst)->handle.target(), script.packed(), (*inst)->entity.packed(),
                        runInitialize ? 1 : 0, messagesOf((*inst)->entry->info), &exc);
    return unlessThrown("attaching a script failed: ", exc);
}

Result<void> ScriptDomain::detach(ObjectId script) {
    ScriptWatchdog::Scope watched("Destroy");
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    impl_->enter();
    MonoException* exc = nullptr;
    impl_->detach.get()(script.packed(), &exc);
    impl_->instances.erase(script);
    return unlessThrown("detaching a script failed: ", exc);
}

Result<void> ScriptDomain::setEnabled(ObjectId script, bool enabled) {
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    impl_->enter();
    MonoException* exc = nullptr;
    impl_->setEnabled.get()(script.packed(), enabled ? 1 : 0, &exc);
    return unlessThrown("", exc);
}

Result<void> ScriptDomain::runUpdate(float deltaTime, double time, std::int64_t frame) {
    ScriptWatchdog::Scope watched("Update");
    if (impl_->domain == nullptr) {
        return fail("the script domain is unloaded");
    }
    impl_->enter();
    MonoException* exc = nullptr;
    impl_->runUpdate.get()(deltaTime, time, frame, &exc);
    return unlessThrown("the Update dispatcher failed: ", exc);
}

Result<void> ScriptDomain::runFixedUpdate(float fixedDeltaTime, double time) {
    ScriptWatchdog::Scope watched("FixedUpdate");
    if (impl_->domain == nullptr) {
        return fail("the script domain is unloaded");
    }
    impl_->enter();
    MonoException* exc = nullptr;
    impl_->runFixedUpdate.get()(fixedDeltaTime, time, &exc);
    return unlessThrown("the FixedUpdate dispatcher failed: ", exc);
}

int ScriptDomain::scheduledCount(ScriptPhase phase) {
    if (impl_->domain == nullptr) {
        return 0;
    }
    impl_->enter();
    MonoException* exc = nullptr;
    const int n = impl_->countScheduled.get()(static_cast<std::int32_t>(phase), &exc);
    return exc == nullptr ? n : 0;
}

Result<Value> ScriptDomain::getField(ObjectId script, std::string_view field) {
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    auto index = impl_->fieldIndex(*(*inst)->entry, field);
    if (!index)
        return std::unexpected(index.error());
    impl_->enter();
    return mono::readField((*inst)->handle.target(), (*inst)->entry->fieldHandles[*index],
                           (*inst)->entry->info.fields[*index].type, impl_->marshal());
}

Result<void> ScriptDomain::setField(ObjectId script, std::string_view field, const Value& value) {
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    auto index = impl_->fieldIndex(*(*inst)->entry, field);
    if (!index)
        return std::unexpected(index.error());
    return setFieldAt(script, *index, value);
}

Result<void> ScriptDomain::setFieldAt(ObjectId script, std::size_t index, const Value& value) {
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    const Impl::ClassEntry& entry = *(*inst)->entry;
    if (index >= entry.info.fields.size()) {
        return fail(fmt::format("{} has no field #{}", entry.info.name, index));
    }
    impl_->enter();
    auto written = mono::writeField((*inst)->handle.target(), entry.fieldHandles[index],
                                    entry.info.fields[index].type, value, impl_->marshal());
    if (!written) {
        return fail(fmt::format("{}.{}: {}", entry.info.name, entry.info.fields[index].name,
                                written.error().message));
    }
    return {};
}

std::size_t ScriptDomain::instanceCount() const noexcept {
    return impl_->instances.size();
}

void ScriptDomain::reserve(std::size_t scripts) {
    if (impl_->domain == nullptr)
        return;
    impl_->instances.reserve(impl_->instances.size() + scripts);
    impl_->enter();
    MonoException* exc = nullptr; // ScriptCore's own code: collection sizing only
    impl_->reserve.get()(static_cast<std::int32_t>(std::min<std::size_t>(scripts, INT32_MAX)),
                         &exc);
}

const FieldCarryPlan& ScriptDomain::carryPlan(const ScriptDomain& from,
                                              std::string_view className) {
    Impl& m = *impl_;
    if (m.carryFrom != &from) {
        m.carryPlans.clear(); // made against another generation
        m.carryFrom = &from;
    }
    for (const auto& plan : m.carryPlans) {
        if (plan->className == className)
            return *plan;
    }
    auto plan = std::make_unique<Impl::CarryEntry>();
    plan->className = std::string(className);
    const Impl::ClassEntry* to = m.findClass(className);
    const Impl::ClassEntry* old = from.impl_->findClass(className);
    plan->to = to;
    plan->from = old;
    auto build = [&]() -> bool {
        if (m.domain == nullptr || from.impl_->domain == nullptr || to == nullptr ||
            old == nullptr || to->info.name != className || old->info.name != className) {
            return false;
        }
        const auto& oldFields = old->info.fields;
        const auto& newFields = to->info.fields;
        // The old fields a snapshot would carry (the others restart from their defaults).
        std::vector<std::size_t> carried;
        for (std::size_t i = 0; i < oldFields.size(); ++i) {
            if (oldFields[i].type.kind == ValueKind::Unsupported) {
                plan->notCarried.push_back(oldFields[i].name + " (" + oldFields[i].type.typeName +
                                           ")");
            } else {
                carried.push_back(i);
            }
        }
        auto unique = [](const std::vector<FieldInfo>& fields) {
            for (std::size_t i = 0; i < fields.size(); ++i) {
                for (std::size_t j = i + 1; j < fields.size(); ++j) {
                    if (fields[i].name == fields[j].name)
                        return false; // a base and a derived field share a name
                }
            }
            return true;
        };
        if (!unique(oldFields) || !unique(newFields))
            return false;
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
                plan->added.push_back(i);
                continue;
            }
            if (!sameShape(oldFields[*source].type, field.type))
                return false; // a conversion
            ++matched;
            plan->targets.push_back(i);
            plan->carries.push_back(mono::planFieldCarry(old->fieldHandles[*source],
                                                         oldFields[*source].type,
                                                         to->fieldHandles[i], field.type));
        }
        return matched == carried.size(); // else old fields would be parked
    };
    plan->direct = build();
    if (!plan->direct) {
        plan->added.clear();
        plan->carries.clear();
        plan->targets.clear();
    }
    m.carryPlans.push_back(std::move(plan));
    return *m.carryPlans.back();
}

Result<void> ScriptDomain::carryFields(const ScriptDomain& from, ObjectId script,
                                       const FieldCarryPlan& plan,
                                       const std::function<bool(ObjectId)>& usable,
                                       std::vector<ClearedRefs>& cleared) {
    const auto& entry = static_cast<const Impl::CarryEntry&>(plan);
    if (!plan.direct || impl_->carryFrom != &from) {
        return fail(fmt::format("no direct carry plan for {}", plan.className));
    }
    const Impl::Instance* old = from.impl_->findInstance(script);
    auto next = impl_->instance(script);
    if (old == nullptr || from.impl_->domain == nullptr)
        return fail(fmt::format("no script instance {} to carry from", script.toString()));
    if (!next)
        return std::unexpected(next.error());
    if (old->entry != entry.from || (*next)->entry != entry.to) {
        return fail(fmt::format("script {} is not a {}", script.toString(), plan.className));
    }
    impl_->enter();
    const auto fromContext = from.impl_->marshal();
    const auto toContext = impl_->marshal();
    // Raw pointers for this call only (locals: the collector sees and pins them).
    MonoObject* source = old->handle.target();
    MonoObject* target = (*next)->handle.target();
    const auto& fields = (*next)->entry->info.fields;
    for (std::size_t k = 0; k < entry.carries.size(); ++k) {
        auto carried =
            mono::carryField(source, fromContext, target, toContext, entry.carries[k], usable);
        if (!carried) {
            return fail(fmt::format("{}.{}: {}", plan.className, fields.at(entry.targets[k]).name,
                                    carried.error().message));
        }
        if (*carried != 0)
            cleared.push_back({entry.targets[k], *carried});
    }
    return {};
}

void ScriptDomain::prepareCarry(const ScriptDomain& from, ObjectId script,
                                const FieldCarryPlan& plan) {
    const auto& entry = static_cast<const Impl::CarryEntry&>(plan);
    if (!plan.direct || impl_->carryFrom != &from || impl_->domain == nullptr)
        return;
    const Impl::Instance* old = from.impl_->findInstance(script);
    if (old == nullptr || old->entry != entry.from)
        return;
    impl_->enter();
    const auto fromContext = from.impl_->marshal();
    const auto toContext = impl_->marshal();
    MonoObject* source = old->handle.target();
    for (const mono::FieldCarry& carry : entry.carries)
        mono::prepareReferenceCarry(source, fromContext, toContext, carry);
}

bool ScriptDomain::hasLiveProxy(ObjectId id) const {
    return impl_->bridge && impl_->bridge->hasLiveProxy(id);
}

void ScriptDomain::forgetProxy(ObjectId id) {
    if (impl_->bridge) {
        impl_->bridge->forget(id);
    }
}

std::size_t ScriptDomain::purgeCollectedProxies() {
    return impl_->bridge ? impl_->bridge->purgeCollected() : 0;
}

std::size_t ScriptDomain::proxyCount() const noexcept {
    return impl_->bridge ? impl_->bridge->proxyCount() : 0;
}

Result<void> ScriptDomain::unload() {
    return impl_->unload();
}

void ScriptDomain::unloadInBackground() {
    if (MonoDomain* dying = impl_->release()) {
        mono::DomainUnloader::instance().submit(dying,
                                                fmt::format("generation {}", impl_->generation));
    }
}

bool ScriptDomain::waitForUnloads(std::chrono::milliseconds timeout) {
    return mono::DomainUnloader::instance().waitIdle(std::chrono::steady_clock::now() + timeout);
}

std::vector<std::string> ScriptDomain::takeUnloadFailures() {
    return mono::DomainUnloader::instance().takeFailures();
}

void ScriptDomain::collectGarbage() {
    mono_gc_collect(mono_gc_max_generation());
    // Finalizers run on their own thread; wait for them like GC.WaitForPendingFinalizers.
    MonoClass* gc = mono_class_from_name(mono_get_corlib(), "System", "GC");
    MonoMethod* wait =
        gc ? mono_class_get_method_from_name(gc, "WaitForPendingFinalizers", 0) : nullptr;
    if (wait != nullptr) {
        MonoObject* exc = nullptr;
        mono_runtime_invoke(wait, nullptr, nullptr, &exc);
    }
}

std::size_t ScriptDomain::liveGcHandles() noexcept {
    return GcHandle::liveCount();
}

std::size_t ScriptDomain::liveDomains() noexcept {
    return g_liveDomains.load(std::memory_order_relaxed) +
           mono::DomainUnloader::instance().pending();
}

Result<std::vector<FieldSnapshot>> ScriptDomain::readFields(ObjectId script,
                                                            std::vector<std::string>* skipped) {
    auto inst = impl_->instance(script);
    if (!inst)
        return std::unexpected(inst.error());
    impl_->enter();
    const Impl::ClassEntry& entry = *(*inst)->entry;
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

namespace {
struct StaticField {
    MonoClass* klass;
    MonoClassField* field;
    const FieldInfo* info;
};

Result<StaticField> findStatic(ScriptDomain::Impl& impl, std::string_view className,
                               std::string_view field) {
    const auto* entry = impl.findClass(className);
    if (entry == nullptr)
        return fail(fmt::format("no script class {}", className));
    for (std::size_t i = 0; i < entry->info.preservedStatics.size(); ++i) {
        if (entry->info.preservedStatics[i].name == field) {
            return StaticField{entry->klass, entry->staticHandles[i],
                               &entry->info.preservedStatics[i]};
        }
    }
    return fail(fmt::format("{} has no [PreserveStatic] field {}", className, field));
}
} // namespace

Result<void> ScriptDomain::initializeClass(std::string_view className) {
    ScriptWatchdog::Scope watched("a static constructor");
    if (impl_->domain == nullptr)
        return fail("the script domain is unloaded");
    const auto* entry = impl_->findClass(className);
    if (entry == nullptr)
        return fail(fmt::format("no script class {}", className));
    impl_->enter();
    MonoReflectionType* type =
        mono_type_get_object(impl_->domain, mono_class_get_type(entry->klass));
    MonoException* exc = nullptr;
    MonoObject* thrown = impl_->classConstructor.get()(reinterpret_cast<MonoObject*>(type), &exc);
    if (exc != nullptr || thrown != nullptr) {
        return fail(
            fmt::format("the static constructor of {} threw: {}", entry->info.name,
                        exceptionText(thrown ? thrown : reinterpret_cast<MonoObject*>(exc))));
    }
    return {};
}

// The vtable and field of a [PreserveStatic] field, with this domain entered.
static Result<std::pair<MonoVTable*, StaticField>>
staticAccess(ScriptDomain::Impl& impl, std::string_view className, std::string_view field) {
    if (impl.domain == nullptr)
        return fail("the script domain is unloaded");
    auto found = findStatic(impl, className, field);
    if (!found)
        return std::unexpected(found.error());
    impl.enter();
    MonoVTable* vtable = mono_class_vtable(impl.domain, found->klass);
    if (vtable == nullptr)
        return fail(fmt::format("{} cannot be loaded", className));
    return std::pair{vtable, *found};
}

Result<Value> ScriptDomain::getStatic(std::string_view className, std::string_view field) {
    auto access = staticAccess(*impl_, className, field);
    if (!access)
        return std::unexpected(access.error());
    const auto& [vtable, f] = *access;
    return mono::readStatic(vtable, f.field, f.info->type, impl_->marshal());
}

Result<void> ScriptDomain::setStatic(std::string_view className, std::string_view field,
                                     const Value& value) {
    auto access = staticAccess(*impl_, className, field);
    if (!access)
        return std::unexpected(access.error());
    const auto& [vtable, f] = *access;
    return mono::writeStatic(vtable, f.field, f.info->type, value, impl_->marshal());
}

Result<void> ScriptDomain::runAfterReload() {
    ScriptWatchdog::Scope watched("OnAfterReload");
    if (impl_->domain == nullptr)
        return fail("the script domain is unloaded");
    impl_->enter();
    std::uint64_t failed = 0;
    MonoException* exc = nullptr;
    MonoObject* thrown = impl_->afterReload.get()(&failed, &exc);
    if (exc != nullptr) {
        return fail("the OnAfterReload dispatcher failed: " +
                    exceptionText(reinterpret_cast<MonoObject*>(exc)));
    }
    if (thrown != nullptr) {
        const ObjectId script = ObjectId::unpack(failed);
        auto it = impl_->instances.find(script);
        const std::string name =
            it != impl_->instances.end() ? it->second.entry->info.name : "a script";
        return fail(fmt::format("OnAfterReload of {} {} threw: {}", name, script.toString(),
                                exceptionText(thrown)));
    }
    return {};
}

bool ScriptDomain::warmUp(std::chrono::microseconds slice) {
    Impl& m = *impl_;
    if (m.domain == nullptr)
        return true;
    m.enter();
    const auto start = std::chrono::steady_clock::now();
    MonoClass* runtime = mono_class_from_name(m.coreImage, "UEngine.Internal", "ScriptRuntime");
    // The work in small steps, so a slice can stop between any two of them.
    const std::vector<std::function<void()>> fixedSteps = {
        [&] { (void)m.attach.get(); },
        [&] { (void)m.detach.get(); },
        [&] { (void)m.setEnabled.get(); },
        [&] { (void)m.runUpdate.get(); },
        [&] { (void)m.runFixedUpdate.get(); },
        [&] { (void)m.countScheduled.get(); },
        [&] { (void)m.afterReload.get(); },
        [&] { (void)m.classConstructor.get(); },
        [&] { (void)m.reserve.get(); },
        [&] {
            for (const char* name :
                 {"Attach", "Detach", "RunUpdate", "RunFixedUpdate", "RunAfterReload"}) {
                void* iter = nullptr;
                while (MonoMethod* method =
                           runtime ? mono_class_get_methods(runtime, &iter) : nullptr) {
                    if (std::string_view(mono_method_get_name(method)) == name)
                        mono_compile_method(method);
                }
            }
        },
        [&] {
            if (MonoMethod* warm =
                    runtime ? mono_class_get_method_from_name(runtime, "Warm", 0) : nullptr) {
                MonoObject* exc = nullptr; // ScriptCore's own code: nothing here throws
                mono_runtime_invoke(warm, nullptr, nullptr, &exc);
            }
        },
    };
    const std::size_t total = fixedSteps.size() + m.classes.size();
    while (m.warmStep < total) {
        if (m.warmStep < fixedSteps.size()) {
            fixedSteps[m.warmStep]();
        } else {
            auto& entry = m.classes[m.warmStep - fixedSteps.size()];
            if (entry->ctor != nullptr)
                (void)m.prepareConstruction(*entry);
            for (const char* name :
                 {".ctor", "Initialize", "Update", "FixedUpdate", "OnAfterReload"}) {
                void* iter = nullptr;
                while (MonoMethod* method = mono_class_get_methods(entry->klass, &iter)) {
                    if (std::string_view(mono_method_get_name(method)) == name)
                        mono_compile_method(method);
                }
            }
        }
        ++m.warmStep;
        if (std::chrono::steady_clock::now() - start >= slice)
            break;
    }
    return m.warmStep >= total;
}

} // namespace scripthost
