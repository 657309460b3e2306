#pragma once
// Turning failures inside internal calls into managed exceptions.

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace scripthost::glue {

/// Which managed exception a failed internal call raises in the script.
enum class ManagedError {
    ArgumentNull,     ///< System.ArgumentNullException
    Argument,         ///< System.ArgumentException
    MissingReference, ///< UEngine.MissingReferenceException (destroyed object)
    InvalidOperation, ///< System.InvalidOperationException
};

/// Thrown inside an internal call; guarded() converts it into the managed exception.
struct ScriptError : std::runtime_error {
    ScriptError(ManagedError kind, const std::string& message)
        : std::runtime_error(message), kind(kind) {}
    ManagedError kind;
};

/// Sets `kind` with `message` as the pending managed exception of this thread; the
/// internal call then returns normally and Mono throws it in the script.
void raiseManaged(ManagedError kind, const std::string& message) noexcept;

/// Runs an internal call's body. No C++ exception ever unwinds through managed frames:
/// a ScriptError becomes its managed exception, anything else an InvalidOperationException
/// naming the call. Returns a value-initialised R (0, nullptr) when the body failed.
template <typename Body, typename R = decltype(std::declval<Body>()())>
R guarded(const char* call, Body&& body) noexcept {
    try {
        return body();
    } catch (const ScriptError& e) {
        raiseManaged(e.kind, e.what());
    } catch (const std::exception& e) {
        raiseManaged(ManagedError::InvalidOperation, std::string(call) + ": " + e.what());
    } catch (...) {
        raiseManaged(ManagedError::InvalidOperation, std::string(call) + ": unknown native error");
    }
    if constexpr (!std::is_void_v<R>) {
        return R{};
    }
}

} // namespace scripthost::glue
