#include "host/runtime/forbidden_calls.hpp"

#include "runtime/il_reader.hpp"
#include "runtime/mono_text.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <mono/metadata/class.h>
#include <mono/metadata/loader.h>
#include <mono/metadata/metadata.h>
#include <mono/metadata/mono-debug.h>
#include <mono/metadata/opcodes.h>
#include <mono/metadata/row-indexes.h>
#include <mono/metadata/tokentype.h>
#include <optional>

namespace scripthost::mono {

namespace {

// The one table of what scripts may not call, with the reason the user reads. See
// docs/MONO.md, "Calls that end or hang the host", for what each does when it runs.
constexpr std::string_view kStopFromOutside =
    "the host is stopped from outside: scriptctl stop, SIGTERM, or run --frames";

constexpr ForbiddenMethod kForbiddenMethods[] = {
    {"System", "Environment", "Exit", "would end the host", kStopFromOutside},
    {"System", "Environment", "FailFast", "would end the host at once, saving nothing",
     kStopFromOutside},
    {"System", "AppDomain", "Unload", "would unload a script generation behind the host's back",
     "the host unloads generations itself, after a reload"},
    {"System.Threading", "Thread", "ResetAbort",
     "would let a script that runs away cancel the watchdog's abort and keep the main "
     "thread forever",
     ""},
};

constexpr ForbiddenImport kForbiddenImports[] = {
    {"exit", "would end the host", kStopFromOutside},
    {"_exit", "would end the host at once, saving nothing", kStopFromOutside},
    {"_Exit", "would end the host at once, saving nothing", kStopFromOutside},
    {"quick_exit", "would end the host at once, saving nothing", kStopFromOutside},
    {"abort", "would end the host at once, saving nothing", kStopFromOutside},
};

struct LocationDeleter {
    void operator()(MonoDebugSourceLocation* location) const noexcept {
        mono_debug_free_source_location(location);
    }
};
using LocationPtr = std::unique_ptr<MonoDebugSourceLocation, LocationDeleter>;

std::uint32_t tableRows(MonoImage* image, int table) {
    const MonoTableInfo* info = mono_image_get_table_info(image, table);
    return info == nullptr ? 0 : static_cast<std::uint32_t>(mono_table_info_get_rows(info));
}

/// What a method token in the scripts image refers to, when it is forbidden.
struct Target {
    std::string callee;
    std::string_view reason;
    std::string_view instead;
};

/// Resolves method tokens against the table, reading metadata only (nothing is loaded).
class TargetResolver {
public:
    explicit TargetResolver(MonoImage* image) : image_(image) { readImports(); }

    [[nodiscard]] std::optional<Target> resolve(std::uint32_t token) const {
        const std::uint32_t row = mono_metadata_token_index(token); // 1-based
        switch (mono_metadata_token_table(token)) {
        case MONO_TABLE_MEMBERREF:
            return memberRef(row);
        case MONO_TABLE_METHODSPEC:
            return methodSpec(row);
        case MONO_TABLE_METHOD:
            return pinvoke(row);
        default:
            return std::nullopt;
        }
    }

private:
    [[nodiscard]] std::optional<Target> memberRef(std::uint32_t row) const {
        if (row == 0 || row > tableRows(image_, MONO_TABLE_MEMBERREF))
            return std::nullopt;
        std::uint32_t member[MONO_MEMBERREF_SIZE];
        mono_metadata_decode_row(mono_image_get_table_info(image_, MONO_TABLE_MEMBERREF),
                                 static_cast<int>(row - 1), member, MONO_MEMBERREF_SIZE);
        const std::uint32_t parent = member[MONO_MEMBERREF_CLASS];
        if ((parent & MONO_MEMBERREF_PARENT_MASK) != MONO_MEMBERREF_PARENT_TYPEREF)
            return std::nullopt;
        const std::uint32_t typeRow = parent >> MONO_MEMBERREF_PARENT_BITS;
        if (typeRow == 0 || typeRow > tableRows(image_, MONO_TABLE_TYPEREF))
            return std::nullopt;
        std::uint32_t type[MONO_TYPEREF_SIZE];
        mono_metadata_decode_row(mono_image_get_table_info(image_, MONO_TABLE_TYPEREF),
                                 static_cast<int>(typeRow - 1), type, MONO_TYPEREF_SIZE);
        const std::string_view name =
            mono_metadata_string_heap(image_, member[MONO_MEMBERREF_NAME]);
        const std::string_view typeName =
            mono_metadata_string_heap(image_, type[MONO_TYPEREF_NAME]);
        const std::string_view nameSpace =
            mono_metadata_string_heap(image_, type[MONO_TYPEREF_NAMESPACE]);
        for (const ForbiddenMethod& f : kForbiddenMethods) {
            if (f.method == name && f.type == typeName && f.nameSpace == nameSpace)
                return Target{fmt::format("{}.{}.{}", nameSpace, typeName, name), f.reason,
                              f.instead};
        }
        return std::nullopt;
    }

    // A generic method's instance: forbidden when the method it instantiates is.
    [[nodiscard]] std::optional<Target> methodSpec(std::uint32_t row) const {
        if (row == 0 || row > tableRows(image_, MONO_TABLE_METHODSPEC))
            return std::nullopt;
        std::uint32_t spec[MONO_METHODSPEC_SIZE];
        mono_metadata_decode_row(mono_image_get_table_info(image_, MONO_TABLE_METHODSPEC),
                                 static_cast<int>(row - 1), spec, MONO_METHODSPEC_SIZE);
        const std::uint32_t method = spec[MONO_METHODSPEC_METHOD];
        const std::uint32_t index = method >> MONO_METHODDEFORREF_BITS;
        if ((method & MONO_METHODDEFORREF_MASK) == MONO_METHODDEFORREF_METHODREF)
            return memberRef(index);
        return pinvoke(index);
    }

    // A method of the scripts' own that is a P/Invoke of a forbidden native function.
    [[nodiscard]] std::optional<Target> pinvoke(std::uint32_t methodRow) const {
        const auto found = imports_.find(methodRow);
        if (found == imports_.end())
            return std::nullopt;
        return found->second;
    }

    // ImplMap: which MethodDef rows are P/Invokes of a forbidden entry point.
    void readImports() {
        const MonoTableInfo* implMap = mono_image_get_table_info(image_, MONO_TABLE_IMPLMAP);
        const std::uint32_t rows = tableRows(image_, MONO_TABLE_IMPLMAP);
        const std::uint32_t moduleRefs = tableRows(image_, MONO_TABLE_MODULEREF);
        for (std::uint32_t row = 0; row < rows; ++row) {
            std::uint32_t cols[MONO_IMPLMAP_SIZE];
            mono_metadata_decode_row(implMap, static_cast<int>(row), cols, MONO_IMPLMAP_SIZE);
            const std::uint32_t member = cols[MONO_IMPLMAP_MEMBER];
            if ((member & MONO_MEMBERFORWD_MASK) != MONO_MEMBERFORWD_METHODDEF)
                continue;
            const std::string_view entry =
                mono_metadata_string_heap(image_, cols[MONO_IMPLMAP_NAME]);
            const auto forbidden =
                std::ranges::find(kForbiddenImports, entry, &ForbiddenImport::entryPoint);
            if (forbidden == std::end(kForbiddenImports))
                continue;
            std::string library = "?";
            const std::uint32_t scope = cols[MONO_IMPLMAP_SCOPE];
            if (scope >= 1 && scope <= moduleRefs) {
                std::uint32_t moduleRef[MONO_MODULEREF_SIZE];
                mono_metadata_decode_row(mono_image_get_table_info(image_, MONO_TABLE_MODULEREF),
                                         static_cast<int>(scope - 1), moduleRef,
                                         MONO_MODULEREF_SIZE);
                library = mono_metadata_string_heap(image_, moduleRef[MONO_MODULEREF_NAME]);
            }
            imports_[member >> MONO_MEMBERFORWD_BITS] =
                Target{fmt::format("native {} (from {})", entry, library), forbidden->reason,
                       forbidden->instead};
        }
    }

    MonoImage* image_;
    std::map<std::uint32_t, Target> imports_; // MethodDef row -> the import it is
};

// The call at `ilOffset` of `method`, with its file and line when symbols are loaded.
ForbiddenCall located(MonoMethod* method, std::uint32_t ilOffset, const Target& target) {
    ForbiddenCall call;
    call.caller = fmt::format("{}.{}", fullClassName(mono_method_get_class(method)),
                              mono_method_get_name(method));
    call.callee = target.callee;
    call.reason = target.reason;
    call.instead = target.instead;
    if (MonoDebugMethodInfo* info = mono_debug_lookup_method(method)) {
        LocationPtr where(mono_debug_method_lookup_location(info, static_cast<int>(ilOffset)));
        if (where && where->source_file != nullptr) {
            call.file = std::filesystem::path(where->source_file).filename().string();
            call.line = where->row;
        }
    }
    return call;
}

// The forbidden calls in one method body, in IL order.
void scanBody(MonoMethod* method, const TargetResolver& resolver,
              std::vector<ForbiddenCall>& found) {
    // A body that cannot be read to its end is scanned as far as it can be.
    (void)forEachInstruction(method, [&](const IlInstruction& instruction) {
        const int argument = mono_opcodes[instruction.opcode].argument;
        if ((argument == MonoInlineMethod || argument == MonoInlineTok) &&
            instruction.operandSize == 4) {
            if (auto target = resolver.resolve(instruction.token()))
                found.push_back(located(method, instruction.offset, *target));
        }
        return true;
    });
}

} // namespace

std::span<const ForbiddenMethod> forbiddenMethods() noexcept {
    return kForbiddenMethods;
}

std::span<const ForbiddenImport> forbiddenImports() noexcept {
    return kForbiddenImports;
}

std::string ForbiddenCall::message() const {
    const std::string where = file.empty() ? std::string() : fmt::format("{}:{}: ", file, line);
    const std::string advice = instead.empty() ? std::string() : fmt::format(" ({})", instead);
    return fmt::format("{}{} calls {}, which {}; scripts may not call it{}", where, caller, callee,
                       reason, advice);
}

std::vector<ForbiddenCall> findForbiddenCalls(MonoImage* image) {
    std::vector<ForbiddenCall> found;
    const TargetResolver resolver(image);
    const std::uint32_t methods = tableRows(image, MONO_TABLE_METHOD);
    for (std::uint32_t row = 1; row <= methods; ++row) {
        MonoMethod* method = mono_get_method(image, MONO_TOKEN_METHOD_DEF | row, nullptr);
        if (method != nullptr)
            scanBody(method, resolver, found);
    }
    return found;
}

} // namespace scripthost::mono
