#pragma once
// The one way the host calls managed code: enter the domain, call, check the exception.

#include "runtime/domain_presence.hpp"
#include "runtime/managed_exception.hpp"
#include "scripthost/game/error.hpp"

#include <mono/metadata/appdomain.h>
#include <mono/metadata/object.h>
#include <string>
#include <string_view>
#include <type_traits>

namespace scripthost::mono {

/// Makes `domain` the calling thread's current domain (nothing to do when it already is).
/// Every domain switch of the host goes through here (or leaveForRoot), so that an unload
/// knows which host threads are still inside a domain (domain_presence.hpp).
inline void enterDomain(MonoDomain* domain) noexcept {
    if (mono_domain_get() != domain) {
        mono_domain_set(domain, false);
        recordDomainEntered(domain);
    }
}

/// The text a failed call's error begins with. `failure` is a fixed text, or a function
/// making one: it is called only once the call has failed, so a call that succeeds
/// formats (and allocates) nothing.
template <typename Failure> [[nodiscard]] std::string failureText(const Failure& failure) {
    if constexpr (std::is_invocable_v<const Failure&>) {
        return std::string(failure());
    } else {
        return std::string(std::string_view(failure));
    }
}

/// Success, or the exception a managed call left in its out-parameter as an error:
/// failureText(failure) followed by the exception's text (mono::thrownText).
template <typename Failure>
[[nodiscard]] Result<void> checkThrown(const Failure& failure, MonoObject* exception) {
    if (exception == nullptr) {
        return {};
    }
    return fail(failureText(failure) + thrownText(exception));
}

/// An unmanaged thunk of a managed method, made on first use: making one compiles a
/// wrapper (milliseconds for all of a dispatcher's), which a reload's load stage should
/// not pay. Thunks take the managed arguments in order and a non-null MonoException**
/// last. Holds only pointers into one domain; reset it before that domain unloads.
template <typename R, typename... Params> class LazyThunk {
public:
    using Fn = R (*)(Params..., MonoException**);

    LazyThunk() = default;
    explicit LazyThunk(MonoMethod* method) noexcept : method_(method) {}

    /// The thunk, made now if it was not yet.
    [[nodiscard]] Fn get() {
        if (fn_ == nullptr)
            fn_ = reinterpret_cast<Fn>(mono_method_get_unmanaged_thunk(method_));
        return fn_;
    }

private:
    MonoMethod* method_ = nullptr;
    Fn fn_ = nullptr;
};

/// Calls `thunk` with `args` in `domain` and checks its exception (checkThrown with
/// `failure`): every thunk call of the host goes through here, so no exception is
/// dropped. Returns the thunk's own result on success.
template <typename Failure, typename R, typename... Params>
[[nodiscard]] Result<R> callChecked(MonoDomain* domain, LazyThunk<R, Params...>& thunk,
                                    const Failure& failure, std::type_identity_t<Params>... args) {
    enterDomain(domain);
    MonoException* exc = nullptr;
    if constexpr (std::is_void_v<R>) {
        thunk.get()(args..., &exc);
        return checkThrown(failure, reinterpret_cast<MonoObject*>(exc));
    } else {
        R result = thunk.get()(args..., &exc);
        if (auto ok = checkThrown(failure, reinterpret_cast<MonoObject*>(exc)); !ok)
            return std::unexpected(std::move(ok.error()));
        return result;
    }
}

/// Runs `method` as the overload below does, with arguments (`args`: one pointer per parameter,
/// objects as the object pointer, value types as a pointer to the value).
template <typename Failure>
[[nodiscard]] Result<MonoObject*> invokeChecked(MonoDomain* domain, MonoMethod* method,
                                                MonoObject* self, void** args,
                                                const Failure& failure) {
    enterDomain(domain);
    MonoObject* exc = nullptr;
    MonoObject* result = mono_runtime_invoke(method, self, args, &exc);
    if (auto ok = checkThrown(failure, exc); !ok)
        return std::unexpected(std::move(ok.error()));
    return result;
}

/// Runs `method` on `self` (null for a static method; no arguments) through
/// mono_runtime_invoke in `domain` and checks its exception like callChecked. The
/// runtime-invoke wrapper has a managed handler on the stack, so the watchdog's abort
/// can land in what it calls (in what a thunk calls it cannot, docs/MONO.md): use it for
/// script code entered outside the dispatcher.
template <typename Failure>
[[nodiscard]] Result<MonoObject*> invokeChecked(MonoDomain* domain, MonoMethod* method,
                                                MonoObject* self, const Failure& failure) {
    return invokeChecked(domain, method, self, nullptr, failure);
}

} // namespace scripthost::mono
