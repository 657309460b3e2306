#pragma once
// Calls scripts may not make: they would end or hang the host, or defeat its safety nets.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// Mono's own declaration (mono/metadata/image.h), so tests need no Mono include path.
typedef struct _MonoImage MonoImage;

namespace scripthost::mono {

/// One method scripts may not call, and why (shown to the user).
struct ForbiddenMethod {
    std::string_view nameSpace; ///< "System"
    std::string_view type;      ///< "Environment"
    std::string_view method;    ///< "Exit"; every overload is forbidden
    std::string_view reason;    ///< "would end the host"
    std::string_view instead;   ///< what to do instead, or ""
};

/// A native function a script may not P/Invoke (any library: libc answers to several
/// names), and why.
struct ForbiddenImport {
    std::string_view entryPoint; ///< "exit"
    std::string_view reason;
    std::string_view instead;
};

/// The table: every call the scanner refuses.
[[nodiscard]] std::span<const ForbiddenMethod> forbiddenMethods() noexcept;
[[nodiscard]] std::span<const ForbiddenImport> forbiddenImports() noexcept;

/// One call of a forbidden method found in a method body.
struct ForbiddenCall {
    std::string file;       ///< source file name (no folder); "" without symbols
    std::uint32_t line = 0; ///< 0 without symbols
    std::string caller;     ///< "Faults.Update"
    std::string callee;     ///< "System.Environment.Exit"
    std::string_view reason;
    std::string_view instead;

    /// "Faults.cs:12: Faults.Update calls System.Environment.Exit, which would end the
    /// host; scripts may not call it (the host is stopped from outside: …)"
    [[nodiscard]] std::string message() const;
};

/// Every call (call, callvirt, newobj, ldftn, ldvirtftn, jmp, and ldtoken of a method) in
/// `image`'s method bodies to a forbidden method — a MemberRef, or a generic instance
/// of one — or to a P/Invoke of a forbidden native function, in method-table and IL
/// order, each with its source file and line when the image's .mdb symbols are loaded.
/// Calls made through reflection or a delegate created by name are not seen.
[[nodiscard]] std::vector<ForbiddenCall> findForbiddenCalls(MonoImage* image);

} // namespace scripthost::mono
