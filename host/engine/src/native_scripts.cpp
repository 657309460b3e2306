#include "host/engine/native_scripts.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <spdlog/spdlog.h>
#include <utility>

namespace scripthost {

using game::NativeFieldType;
using game::NativeValue;

FieldType fieldTypeOf(NativeFieldType type) {
    FieldType t;
    switch (type) {
    case NativeFieldType::Bool:
        t.kind = ValueKind::Bool;
        t.typeName = "System.Boolean";
        break;
    case NativeFieldType::Int32:
        t.kind = ValueKind::Int32;
        t.typeName = "System.Int32";
        break;
    case NativeFieldType::Int64:
        t.kind = ValueKind::Int64;
        t.typeName = "System.Int64";
        break;
    case NativeFieldType::Float:
        t.kind = ValueKind::Float;
        t.typeName = "System.Single";
        break;
    case NativeFieldType::Double:
        t.kind = ValueKind::Double;
        t.typeName = "System.Double";
        break;
    case NativeFieldType::String:
        t.kind = ValueKind::String;
        t.typeName = "System.String";
        break;
    case NativeFieldType::Vector2:
        t.kind = ValueKind::Vector2;
        t.typeName = "UEngine.Vector2";
        break;
    case NativeFieldType::Vector3:
        t.kind = ValueKind::Vector3;
        t.typeName = "UEngine.Vector3";
        break;
    case NativeFieldType::Vector4:
        t.kind = ValueKind::Vector4;
        t.typeName = "UEngine.Vector4";
        break;
    case NativeFieldType::Quaternion:
        t.kind = ValueKind::Quaternion;
        t.typeName = "UEngine.Quaternion";
        break;
    case NativeFieldType::Entity:
        t.kind = ValueKind::ObjectRef;
        t.typeName = "UEngine.UEntity";
        t.refTarget = RefTarget::Entity;
        break;
    }
    return t;
}

namespace {

/// `value` as the NativeValue alternative I (= the NativeFieldType), or nothing: the same
/// alternative as the Value's, except int32 (held as int64 in a Value, range-checked) and an
/// entity (an ObjectRef in a Value).
template <std::size_t I> std::optional<NativeValue> convertTo(const Value& value) {
    using T = std::variant_alternative_t<I, NativeValue>;
    if constexpr (std::is_same_v<T, std::int32_t>) {
        if (const auto* i = std::get_if<std::int64_t>(&value);
            i != nullptr && *i >= std::numeric_limits<std::int32_t>::min() &&
            *i <= std::numeric_limits<std::int32_t>::max())
            return NativeValue(std::in_place_index<I>, static_cast<std::int32_t>(*i));
    } else if constexpr (std::is_same_v<T, ObjectId>) {
        if (const auto* r = std::get_if<ObjectRef>(&value))
            return NativeValue(std::in_place_index<I>, r->id);
    } else if (const auto* v = std::get_if<T>(&value)) {
        return NativeValue(std::in_place_index<I>, *v);
    }
    return std::nullopt;
}

} // namespace

Result<NativeValue> toNativeValue(const Value& value, NativeFieldType type) {
    std::optional<NativeValue> converted;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        ((static_cast<std::size_t>(type) == I ? (void)(converted = convertTo<I>(value)) : void()),
         ...);
    }
    (std::make_index_sequence<std::variant_size_v<NativeValue>>{});
    if (!converted)
        return fail(
            fmt::format("{} is not a {} value", describe(value), fieldTypeOf(type).typeName));
    return std::move(*converted);
}

Value fromNativeValue(const NativeValue& value) {
    return std::visit(
        [](const auto& v) -> Value {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::int32_t>)
                return Value(static_cast<std::int64_t>(v));
            else if constexpr (std::is_same_v<T, ObjectId>)
                return Value(ObjectRef{v});
            else
                return Value(v);
        },
        value);
}

namespace {

/// The C# message a native one stands for in failure reports.
ScriptPhase phaseOf(std::string_view message) {
    if (message == "update")
        return ScriptPhase::Update;
    if (message == "fixedUpdate")
        return ScriptPhase::FixedUpdate;
    if (message == "destroy")
        return ScriptPhase::Destroy;
    return ScriptPhase::Initialize; // initialize, afterReload
}

} // namespace

NativeScripts::~NativeScripts() {
    // The host removes every script (running destroy) before it goes; what is left here
    // belongs to code that may be gone: let it go without running it.
    for (auto& [slot, instance] : instances_)
        (void)instance.object.release();
}

void NativeScripts::setClasses(std::vector<game::NativeScriptClassInfo> classes,
                               game::GameWorld& world, NativeCrashHandler onCrash) {
    ClassSet set;
    for (const game::NativeScriptClassInfo& c : classes) {
        ScriptClassInfo shape;
        shape.name = c.name;
        shape.overridesUpdate = true;
        shape.overridesFixedUpdate = true;
        for (const game::NativeFieldInfo& f : c.fields) {
            FieldInfo field;
            field.name = f.name;
            field.displayName = f.name;
            field.type = fieldTypeOf(f.type);
            field.declaringClass = c.name;
            shape.fields.push_back(std::move(field));
        }
        set.shapes.push_back(std::move(shape));
    }
    set.classes = std::move(classes);
    builds_.push_back(std::move(set));
    current_.clear();
    for (const game::NativeScriptClassInfo& c : builds_.back().classes)
        current_.push_back(&c);
    world_ = &world;
    onCrash_ = std::move(onCrash);
    crash_.clear();
}

const game::NativeScriptClassInfo* NativeScripts::findClass(std::string_view name) const {
    for (const game::NativeScriptClassInfo* c : current_) {
        if (c->name == name)
            return c;
    }
    return nullptr;
}

const ScriptClassInfo* NativeScripts::shapeOf(std::string_view name) const {
    if (builds_.empty())
        return nullptr;
    for (const ScriptClassInfo& shape : builds_.back().shapes) {
        if (shape.name == name)
            return &shape;
    }
    return nullptr;
}

const game::NativeScriptClassInfo* NativeScripts::classByTag(const void* tag) const noexcept {
    for (auto build = builds_.rbegin(); build != builds_.rend(); ++build) {
        for (const game::NativeScriptClassInfo& c : build->classes) {
            if (c.tag == tag)
                return &c;
        }
    }
    return nullptr;
}

const NativeScripts::Instance* NativeScripts::find(ObjectId slot) const noexcept {
    auto it = instances_.find(slot);
    return it == instances_.end() ? nullptr : &it->second;
}

NativeScripts::Instance* NativeScripts::find(ObjectId slot) noexcept {
    auto it = instances_.find(slot);
    return it == instances_.end() ? nullptr : &it->second;
}

const game::NativeScriptClassInfo* NativeScripts::classOf(ObjectId slot) const noexcept {
    const Instance* i = find(slot);
    return i != nullptr ? i->cls : nullptr;
}

void NativeScripts::switchOff(const std::string& what, const NativeFault& fault) {
    crash_ = fmt::format("{}: {}", what, fault.describe());
    spdlog::error("{} crashed; every native script is switched off (the C# scripts and the host "
                  "go on): {}",
                  what, fault.describe());
    if (onCrash_)
        onCrash_(what, fault);
}

Result<void> NativeScripts::create(ObjectId slot, ObjectId entity, std::string_view className) {
    if (!crash_.empty())
        return fail("native scripts are switched off after a crash: " + crash_);
    const game::NativeScriptClassInfo* cls = findClass(className);
    if (cls == nullptr)
        return fail(fmt::format("no native script class {}", className));
    if (instances_.contains(slot))
        return fail("script " + slot.toString() + " has a native object already");
    std::unique_ptr<game::NativeScript> object;
    const CallOutcome made =
        call([&] { return fmt::format("native script {} constructor", cls->name); },
             [&] { object = cls->create(); });
    if (made.crashed)
        return fail(fmt::format("{}'s constructor crashed: {}", cls->name, crash_));
    if (!object)
        return fail(fmt::format("{}'s constructor failed: {}", cls->name,
                                made.error.empty() ? "it made no object" : made.error));
    object->attachToHost(*world_, slot, entity);
    instances_.emplace(slot, Instance{std::move(object), cls, false});
    order_.push_back(slot);
    return {};
}

bool NativeScripts::message(ObjectId slot, Instance& instance, const char* name,
                            const std::function<void(game::NativeScript&)>& call) {
    const CallOutcome ran = this->call(
        [&] {
            return fmt::format("native script {} {} {}", instance.cls->name, slot.toString(), name);
        },
        [&] { call(*instance.object); });
    if (ran.ok())
        return true;
    // Counted like a C# script's failure (status, smoke mode), already switched off.
    ScriptFailure failure;
    failure.script = slot;
    failure.className = instance.cls->name;
    failure.phase = phaseOf(name);
    failure.disabled = true;
    if (ran.crashed) {
        failure.exceptionType = "native crash";
        failure.message = crash_;
    } else {
        instance.switchedOff = true;
        failure.exceptionType = "C++ exception";
        failure.message = ran.error;
        spdlog::error("native script {} {}: {} threw and the script is switched off: {}",
                      instance.cls->name, slot.toString(), name, ran.error);
    }
    failure.text = fmt::format("{} {}.{}: {}", failure.exceptionType, instance.cls->name, name,
                               failure.message);
    if (onFailure)
        onFailure(failure);
    return false;
}

Result<void> NativeScripts::initialize(ObjectId slot) {
    Instance* i = find(slot);
    if (i == nullptr)
        return fail("script " + slot.toString() + " has no native object");
    if (!message(slot, *i, "initialize", [](game::NativeScript& s) { s.initialize(); }))
        return fail(fmt::format("{}.initialize failed (see the log)", i->cls->name));
    return {};
}

Result<void> NativeScripts::afterReload(ObjectId slot) {
    Instance* i = find(slot);
    if (i == nullptr)
        return fail("script " + slot.toString() + " has no native object");
    if (!message(slot, *i, "afterReload", [](game::NativeScript& s) { s.afterReload(); }))
        return fail(fmt::format("{}.afterReload failed (see the log)", i->cls->name));
    return {};
}

void NativeScripts::remove(ObjectId slot, bool sendDestroy) {
    auto it = instances_.find(slot);
    if (it == instances_.end())
        return;
    Instance& i = it->second;
    if (sendDestroy && crash_.empty() && !i.switchedOff)
        message(slot, i, "destroy", [](game::NativeScript& s) { s.destroy(); });
    if (crash_.empty()) {
        (void)call(
            [&] {
                return fmt::format("native script {} {} destructor", i.cls->name, slot.toString());
            },
            [&] { i.object.reset(); });
    }
    (void)i.object.release(); // after a crash: leaked, never run again
    instances_.erase(it);
    order_.erase(std::remove(order_.begin(), order_.end(), slot), order_.end());
}

void NativeScripts::fixedUpdate(float fixedDeltaTime, const RunsFilter& runs) {
    const auto slots = order_; // a message may add or remove scripts
    for (ObjectId slot : slots) {
        if (!crash_.empty())
            return;
        Instance* i = find(slot);
        if (i != nullptr && !i->switchedOff && (!runs || runs(slot)))
            message(slot, *i, "fixedUpdate",
                    [&](game::NativeScript& s) { s.fixedUpdate(fixedDeltaTime); });
    }
}

void NativeScripts::update(float deltaTime, const RunsFilter& runs) {
    const auto slots = order_;
    for (ObjectId slot : slots) {
        if (!crash_.empty())
            return;
        Instance* i = find(slot);
        if (i != nullptr && !i->switchedOff && (!runs || runs(slot)))
            message(slot, *i, "update", [&](game::NativeScript& s) { s.update(deltaTime); });
    }
}

namespace {

const game::NativeFieldInfo* fieldNamed(const game::NativeScriptClassInfo& cls,
                                        std::string_view name) {
    for (const game::NativeFieldInfo& f : cls.fields) {
        if (f.name == name)
            return &f;
    }
    return nullptr;
}

} // namespace

Result<Value> NativeScripts::getField(ObjectId slot, std::string_view field) const {
    const Instance* i = find(slot);
    if (i == nullptr)
        return fail("script " + slot.toString() + " has no native object");
    const game::NativeFieldInfo* f = fieldNamed(*i->cls, field);
    if (f == nullptr)
        return fail(fmt::format("{} has no field named {}", i->cls->name, field));
    NativeValue value;
    std::string error;
    if (auto fault = NativeFaultGuard::run([&] {
            try {
                value = f->get(*i->object);
            } catch (const std::exception& e) {
                error = e.what();
            }
        }))
        return fail(
            fmt::format("reading {}.{} crashed: {}", i->cls->name, field, fault->describe()));
    if (!error.empty())
        return fail(fmt::format("reading {}.{} failed: {}", i->cls->name, field, error));
    return fromNativeValue(value);
}

Result<void> NativeScripts::setField(ObjectId slot, std::string_view field, const Value& value) {
    const Instance* i = find(slot);
    if (i == nullptr)
        return fail("script " + slot.toString() + " has no native object");
    const auto& fields = i->cls->fields;
    for (std::size_t k = 0; k < fields.size(); ++k) {
        if (fields[k].name == field)
            return writeField(slot, k, value);
    }
    return fail(fmt::format("{} has no field named {}", i->cls->name, field));
}

Result<void> NativeScripts::writeField(ObjectId slot, std::size_t index, const Value& value) {
    Instance* i = find(slot);
    if (i == nullptr)
        return fail("script " + slot.toString() + " has no native object");
    if (index >= i->cls->fields.size())
        return fail(fmt::format("{} has no field {}", i->cls->name, index));
    const game::NativeFieldInfo& f = i->cls->fields[index];
    auto native = toNativeValue(value, f.type);
    if (!native)
        return fail(fmt::format("{}.{}: {}", i->cls->name, f.name, native.error().message));
    const CallOutcome wrote = call(
        [&] {
            return fmt::format("native script {} {} field {}", i->cls->name, slot.toString(),
                               f.name);
        },
        [&] { f.set(*i->object, *native); });
    if (wrote.crashed)
        return fail(fmt::format("writing {}.{} crashed", i->cls->name, f.name));
    if (!wrote.error.empty())
        return fail(fmt::format("writing {}.{} failed: {}", i->cls->name, f.name, wrote.error));
    return {};
}

Result<ScriptSnapshot> NativeScripts::snapshot(ObjectId slot, ObjectId entity) const {
    const Instance* i = find(slot);
    if (i == nullptr)
        return fail("script " + slot.toString() + " has no native object");
    ScriptSnapshot snap{slot, entity, i->cls->name, {}};
    for (const game::NativeFieldInfo& f : i->cls->fields) {
        auto value = getField(slot, f.name);
        if (!value)
            return std::unexpected(value.error());
        snap.fields.push_back(FieldSnapshot{f.name, fieldTypeOf(f.type), std::move(*value)});
    }
    return snap;
}

} // namespace scripthost
