#pragma once
// A game module's own internal calls, guarded.
//
// GameRegistry::registerInternalCall<&function>("Demo.Arena/Native::Internal_Flash") makes
// the plain function Mono calls for that C# `extern` method: a thunk this header instantiates
// in the module, like a native script's method thunk (native_script.hpp). The thunk puts its
// arguments in a frame and hands the frame to the host (InternalCallBridge::invoke), which
// runs `function` under NativeFaultGuard. A crash in it switches the whole module off, as a
// crash in one of its systems does, and raises an InvalidOperationException in the calling
// script; after that, every call to one of the module's internal calls raises one too,
// instead of running its code. A C++ exception raises one in the script as well (the module
// stays on).
//
// Arguments and result are plain (blittable) values, as C# passes them to an internal call:
// bool, the integer types, float, double, or a pointer to a trivially copyable type (a C#
// `ref`/`out` struct parameter).
//
// Threading: the host runs the function on its main thread, inside its game loop only; a call
// from another thread (a script thread, a finalizer) raises an InvalidOperationException.

#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace scripthost::game {

/// Runs an internal call's function on the arguments in `frame` and stores its result there.
using InternalCallBody = void (*)(void* frame);

/// How a module's internal call thunks reach the host; GameRegistry::registerInternalCall
/// sets it.
struct InternalCallBridge {
    /// Runs `body(frame)` guarded, for the internal call whose thunk (the function Mono calls)
    /// is `thunk`. When it cannot (the module is switched off, another thread, a crash, an
    /// exception), it sets the managed exception the call raises and returns false.
    bool (*invoke)(const void* thunk, InternalCallBody body, void* frame) = nullptr;
};

/// An internal call as the host keeps it (what registerInternalCall<&function> describes).
struct InternalCallInfo {
    /// The C# method: "Namespace.Class::Method"; a nested class is "Namespace.Outer/Inner::Method".
    std::string managedName;
    /// What Mono calls: R (Args...), the thunk; unique to this function in this module build.
    const void* thunk = nullptr;
};

namespace detail {

/// The module's bridge to the host (one per module: each module has its own copy).
inline InternalCallBridge internalCallBridge;

template <class T> constexpr bool isInternalCallType() {
    if constexpr (std::is_pointer_v<T>)
        return std::is_trivially_copyable_v<std::remove_pointer_t<T>> &&
               !std::is_void_v<std::remove_pointer_t<T>>;
    else
        return std::is_arithmetic_v<T>;
}

template <auto Function, class R, class... A> struct InternalCallThunkOf {
    static_assert((isInternalCallType<A>() && ...),
                  "an internal call's parameters are bool, integers, float, double or pointers "
                  "to trivially copyable types (blittable, as C# passes them)");
    static_assert(std::is_void_v<R> || isInternalCallType<R>(),
                  "an internal call returns void, bool, an integer, float, double or a pointer "
                  "to a trivially copyable type");
    using Result = std::conditional_t<std::is_void_v<R>, char, R>;
    struct Frame {
        std::tuple<A...> arguments;
        Result result{};
    };

    static void body(void* frame) {
        auto& f = *static_cast<Frame*>(frame);
        if constexpr (std::is_void_v<R>)
            std::apply(Function, f.arguments);
        else
            f.result = std::apply(Function, f.arguments);
    }

    /// The internal call: a plain function C# calls with the arguments. When the host does
    /// not run `Function` (see InternalCallBridge::invoke) the script gets the exception, not
    /// the zero this returns.
    static R internalCall(A... arguments) {
        Frame frame{std::tuple<A...>(arguments...)};
        if (internalCallBridge.invoke != nullptr)
            internalCallBridge.invoke(reinterpret_cast<const void*>(&internalCall), &body, &frame);
        if constexpr (!std::is_void_v<R>)
            return frame.result;
    }

    static InternalCallInfo info(std::string managedName) {
        return InternalCallInfo{std::move(managedName),
                                reinterpret_cast<const void*>(&internalCall)};
    }
};

template <auto Function, class Signature = decltype(Function)> struct InternalCallThunk {
    static_assert(sizeof(Signature) == 0, "registerInternalCall<&function>: a pointer to a "
                                          "free function (or a static member function)");
};
template <auto Function, class R, class... A>
struct InternalCallThunk<Function, R (*)(A...)> : InternalCallThunkOf<Function, R, A...> {};
template <auto Function, class R, class... A>
struct InternalCallThunk<Function, R (*)(A...) noexcept> : InternalCallThunkOf<Function, R, A...> {
};

} // namespace detail

} // namespace scripthost::game
