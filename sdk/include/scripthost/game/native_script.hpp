#pragma once
// Native script classes: C++ classes that play the part of scripts.
//
// A game module registers a class with GameRegistry::registerScript. Its instances live on
// entities like C# scripts: in scenes and state files, `scriptctl get/set`, snapshots and
// reload reports, parked when a new build of the module drops the class, and carried across
// module reloads field by field with the same migration rules as a C# script's fields. The
// host generates a C# proxy class of the same full name (deriving from UEngine.UNativeScript,
// or from the C# abstract class the native class implements): its fields are properties and
// its methods are methods, reaching the native object through internal calls, so C# writes
// `GetComponent<Demo.NativeSpinner>().speed = 3` with compile-time types.
//
//     struct Spinner : scripthost::game::NativeScript {
//         float speed = 90;
//         void update(float dt) override { transform().rotate({0, 1, 0}, speed * dt); }
//         float boost(float factor) { return speed *= factor; }
//     };
//     registry.registerScript(scripthost::game::NativeScriptClass<Spinner>("Demo.NativeSpinner")
//                                 .field("speed", &Spinner::speed)
//                                 .method<&Spinner::boost>("Boost"));
//
// Threading: everything runs on the host's main thread. A proxy used from another thread
// gets an InvalidOperationException.

#include "scripthost/game/game_world.hpp"
#include "scripthost/game/object_id.hpp"
#include "scripthost/game/transform.hpp"

#include <cstdint>
#include <functional>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace scripthost::game {

/// The types a native script's field may have. Each is a C# field type: bool, int, long,
/// float, double, string, Vector2, Vector3, Vector4, Quaternion, and UEntity (a reference to
/// an entity, held as its ObjectId). A method's parameters and result are bool, int, long,
/// float or double.
enum class NativeFieldType : std::uint8_t {
    Bool,
    Int32,
    Int64,
    Float,
    Double,
    String,
    Vector2,
    Vector3,
    Vector4,
    Quaternion,
    Entity,
};

/// A native field's value; the alternative's index is the NativeFieldType.
using NativeValue = std::variant<bool, std::int32_t, std::int64_t, float, double, std::string,
                                 glm::vec2, glm::vec3, glm::vec4, glm::quat, ObjectId>;

/// The NativeFieldType of a C++ field type (a compile error for any other type).
template <class T> constexpr NativeFieldType nativeFieldTypeOf() {
    if constexpr (std::is_same_v<T, bool>)
        return NativeFieldType::Bool;
    else if constexpr (std::is_same_v<T, std::int32_t>)
        return NativeFieldType::Int32;
    else if constexpr (std::is_same_v<T, std::int64_t>)
        return NativeFieldType::Int64;
    else if constexpr (std::is_same_v<T, float>)
        return NativeFieldType::Float;
    else if constexpr (std::is_same_v<T, double>)
        return NativeFieldType::Double;
    else if constexpr (std::is_same_v<T, std::string>)
        return NativeFieldType::String;
    else if constexpr (std::is_same_v<T, glm::vec2>)
        return NativeFieldType::Vector2;
    else if constexpr (std::is_same_v<T, glm::vec3>)
        return NativeFieldType::Vector3;
    else if constexpr (std::is_same_v<T, glm::vec4>)
        return NativeFieldType::Vector4;
    else if constexpr (std::is_same_v<T, glm::quat>)
        return NativeFieldType::Quaternion;
    else if constexpr (std::is_same_v<T, ObjectId>)
        return NativeFieldType::Entity;
    else
        static_assert(sizeof(T) == 0, "a native script field is bool, int32_t, int64_t, float, "
                                      "double, std::string, glm::vec2/vec3/vec4, glm::quat or "
                                      "ObjectId (an entity)");
}

/// Base of a native script class. The host creates an instance with the class's factory, sets
/// its fields (scene values, or the values a reload carried), then calls initialize(); each
/// frame fixedUpdate() (per fixed step) and update() run after the C# scripts' own; destroy()
/// runs when the script is removed or its entity destroyed. A module reload replaces the
/// instance with one of the new build's class: its fields are carried, initialize() does not
/// run again, afterReload() does. A C++ exception from a message is logged and switches that
/// script off; a crash switches the module's code off (see GameModuleHost).
class NativeScript {
public:
    virtual ~NativeScript() = default;
    virtual void initialize() {}
    virtual void update(float /*deltaTime*/) {}
    virtual void fixedUpdate(float /*fixedDeltaTime*/) {}
    virtual void destroy() {}
    /// After a module reload put the carried field values into this new instance.
    virtual void afterReload() {}

    /// This script's id (what C# sees as nativeId).
    [[nodiscard]] ObjectId self() const noexcept { return self_; }
    /// The entity the script is on.
    [[nodiscard]] ObjectId entity() const noexcept { return entity_; }
    [[nodiscard]] GameWorld& world() const noexcept { return *world_; }
    /// The entity's transform (an entity outlives its scripts).
    [[nodiscard]] Transform& transform() const { return *world_->transform(entity_); }

    /// Called by the host once, before anything else; not for module code.
    void attachToHost(GameWorld& world, ObjectId self, ObjectId entity) noexcept {
        world_ = &world;
        self_ = self;
        entity_ = entity;
    }

private:
    GameWorld* world_ = nullptr;
    ObjectId self_;
    ObjectId entity_;
};

/// A serialised field of a native script class.
struct NativeFieldInfo {
    std::string name;
    NativeFieldType type = NativeFieldType::Float;
    std::function<NativeValue(const NativeScript&)> get;
    /// Called with a value of `type` only.
    std::function<void(NativeScript&, const NativeValue&)> set;
};

/// Runs a method on `script`; its arguments and result live in `frame`.
using NativeMethodBody = void (*)(NativeScript& script, void* frame);

/// A method C# calls through the proxy.
struct NativeMethodInfo {
    std::string name; ///< the C# name
    std::vector<NativeFieldType> parameters;
    std::optional<NativeFieldType> result; ///< empty: void
    /// The internal call the proxy's method binds to: R (std::uint64_t self, Args...).
    const void* internalCall = nullptr;
    NativeMethodBody body = nullptr;
};

/// A native script class as the host keeps it.
struct NativeScriptClassInfo {
    std::string name;        ///< full name, also the C# proxy's: "Demo.NativeSpinner"
    std::string description; ///< the proxy's doc comment
    /// The C# abstract class (deriving from UEngine.UNativeScript) the proxy derives from, whose
    /// abstract methods the native methods implement; empty: UEngine.UNativeScript.
    std::string baseClass;
    /// Unique to this class in this build of the module.
    const void* tag = nullptr;
    std::function<std::unique_ptr<NativeScript>()> create;
    std::vector<NativeFieldInfo> fields;
    std::vector<NativeMethodInfo> methods;
};

/// How a method's internal call reaches the host; GameRegistry::registerScript sets it.
struct NativeCallBridge {
    /// Runs `body(instance, frame)` on the native script `self`, guarded. `tag` and `method`
    /// name the class and method the internal call was made for: when the instance is of
    /// another build of the class (the scripts still run code bound to the previous build),
    /// the host calls the same method of the instance's class, if its signature is the same.
    /// When it cannot (no such script, another thread, a crash, an exception), it sets the
    /// managed exception the call raises and returns false.
    bool (*invoke)(std::uint64_t self, const void* tag, const char* method, NativeMethodBody body,
                   void* frame) = nullptr;
};

namespace detail {

/// The module's bridge to the host (one per module: each module has its own copy).
inline NativeCallBridge callBridge;

/// An address unique to the class T in this build of the module.
template <class T> struct ClassTag { static inline const char id = 0; };

template <class T> constexpr bool isMethodType() {
    return std::is_same_v<T, bool> || std::is_same_v<T, std::int32_t> ||
           std::is_same_v<T, std::int64_t> || std::is_same_v<T, float> || std::is_same_v<T, double>;
}

template <auto Method> struct MethodThunk;

template <class T, class R, class... A, R (T::*Method)(A...)> struct MethodThunk<Method> {
    static_assert((isMethodType<A>() && ...),
                  "a native method's parameters are bool, int32_t, int64_t, float or double");
    static_assert(std::is_void_v<R> || isMethodType<R>(),
                  "a native method returns void, bool, int32_t, int64_t, float or double");
    using Result = std::conditional_t<std::is_void_v<R>, char, R>;
    struct Frame {
        std::tuple<A...> arguments;
        Result result{};
    };
    static inline const char* name = "";

    static void body(NativeScript& script, void* frame) {
        auto& f = *static_cast<Frame*>(frame);
        auto call = [&](A... a) -> R { return (static_cast<T&>(script).*Method)(a...); };
        if constexpr (std::is_void_v<R>)
            std::apply(call, f.arguments);
        else
            f.result = std::apply(call, f.arguments);
    }

    /// The internal call: a plain function C# calls with the proxy's id and the arguments.
    static R internalCall(std::uint64_t self, A... arguments) {
        Frame frame{std::tuple<A...>(arguments...)};
        if (callBridge.invoke != nullptr)
            callBridge.invoke(self, &ClassTag<T>::id, name, &body, &frame);
        if constexpr (!std::is_void_v<R>)
            return frame.result;
    }

    static NativeMethodInfo info(std::string methodName) {
        NativeMethodInfo m;
        m.name = std::move(methodName);
        m.parameters = {nativeFieldTypeOf<A>()...};
        if constexpr (!std::is_void_v<R>)
            m.result = nativeFieldTypeOf<R>();
        m.internalCall = reinterpret_cast<const void*>(&internalCall);
        m.body = &body;
        return m;
    }
};

} // namespace detail

/// Describes a native script class T (derived from NativeScript, default-constructible) to
/// register with GameRegistry::registerScript.
template <class T> class NativeScriptClass {
    static_assert(std::is_base_of_v<NativeScript, T>, "a native script class derives from "
                                                      "scripthost::game::NativeScript");

public:
    /// `name`: the full name C# sees ("Demo.NativeSpinner").
    explicit NativeScriptClass(std::string name, std::string description = {}) {
        info_.name = std::move(name);
        info_.description = std::move(description);
        info_.tag = &detail::ClassTag<T>::id;
        info_.create = [] { return std::unique_ptr<NativeScript>(new T()); };
    }

    /// A serialised field: the member `member`, named `name` in scenes, state files and C#.
    template <class F> NativeScriptClass& field(std::string name, F T::*member) {
        NativeFieldInfo f;
        f.name = std::move(name);
        f.type = nativeFieldTypeOf<F>();
        f.get = [member](const NativeScript& s) {
            return NativeValue(std::in_place_type<F>, static_cast<const T&>(s).*member);
        };
        f.set = [member](NativeScript& s, const NativeValue& v) {
            static_cast<T&>(s).*member = std::get<F>(v);
        };
        info_.fields.push_back(std::move(f));
        return *this;
    }

    /// A method C# calls through the proxy, named `name` there: `.method<&T::boost>("Boost")`.
    template <auto Method> NativeScriptClass& method(std::string name) {
        using Thunk = detail::MethodThunk<Method>;
        auto m = Thunk::info(std::move(name));
        static std::string kept; // the thunk reports the name with each call
        kept = m.name;
        Thunk::name = kept.c_str();
        info_.methods.push_back(std::move(m));
        return *this;
    }

    /// The proxy derives from this C# abstract class (itself deriving from UNativeScript);
    /// methods of the same name implement its abstract methods.
    NativeScriptClass& implements(std::string csharpBaseClass) {
        info_.baseClass = std::move(csharpBaseClass);
        return *this;
    }

    [[nodiscard]] NativeScriptClassInfo build() && { return std::move(info_); }

private:
    NativeScriptClassInfo info_;
};

} // namespace scripthost::game
