// registerEngineInternalCalls (host/glue/src/engine_internal_calls.cpp): once it has run, every
// method ScriptCore marks [MethodImpl(InternalCall)] resolves to a host function (counted
// against ScriptCore's sources, so a method the scan misses shows too), a second call changes
// nothing, and the bridge game modules' internal calls call is installed.
#include "../support/glue_test_support.hpp"
#include "host/modules/module_call_index.hpp"
#include "runtime/runtime_state.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/attrdefs.h>
#include <mono/metadata/blob.h>
#include <mono/metadata/debug-helpers.h>
#include <mono/metadata/loader.h>
#include <mono/metadata/metadata.h>
#include <mono/metadata/tokentype.h>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

/// Each InternalCall method of ScriptCore ("UEngine.UEntity:Internal_Find (string)") and the
/// function Mono resolves it to (nullptr: none registered).
using Resolved = std::multimap<std::string, const void*>;
Resolved gScanned;

/// A test-only internal call: scans the ScriptCore image of the calling script's domain (no
/// doctest assertion here: it must not throw through managed frames).
void scanScriptCore() {
    gScanned.clear();
    MonoImage* core = mono::runtimeState().domains.scriptCoreImage(mono_domain_get());
    if (core == nullptr)
        return;
    const MonoTableInfo* methods = mono_image_get_table_info(core, MONO_TABLE_METHOD);
    const int rows = mono_table_info_get_rows(methods);
    for (int row = 1; row <= rows; ++row) {
        MonoMethod* method =
            mono_get_method(core, MONO_TOKEN_METHOD_DEF | static_cast<std::uint32_t>(row), nullptr);
        if (method == nullptr) {
            gScanned.emplace("unreadable method row " + std::to_string(row), nullptr);
            continue;
        }
        std::uint32_t implFlags = 0;
        mono_method_get_flags(method, &implFlags);
        if ((implFlags & MONO_METHOD_IMPL_ATTR_INTERNAL_CALL) == 0)
            continue;
        char* name = mono_method_full_name(method, true);
        gScanned.emplace(name, mono_lookup_internal_call(method));
        mono_free(name);
    }
}

/// How many methods ScriptCore's C# sources mark [MethodImpl(MethodImplOptions.InternalCall)].
std::size_t declaredInSources() {
    const std::filesystem::path sources = SCRIPTHOST_SCRIPTCORE_SOURCE_DIR;
    std::size_t count = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(sources)) {
        if (entry.path().extension() != ".cs")
            continue;
        std::ifstream in(entry.path());
        for (std::string line; std::getline(in, line);) {
            const auto start = line.find_first_not_of(" \t");
            if (start != std::string::npos &&
                line.compare(start, 45, "[MethodImpl(MethodImplOptions.InternalCall)]") == 0)
                ++count;
        }
    }
    return count;
}

const std::string kScanner = R"(
using System.Runtime.CompilerServices;
using UEngine;

public class Scanner : UMonoScriptComponent
{
    [MethodImpl(MethodImplOptions.InternalCall)] static extern void ScanScriptCore();
    [SerializeField] bool scan;

    public override void Update(float deltaTime)
    {
        if (!scan) return;
        scan = false;
        ScanScriptCore();
    }
}
)";

} // namespace

TEST_CASE("Engine internal calls: every InternalCall method ScriptCore declares resolves to a "
          "host function, and registering again changes nothing") {
    GlueHost host("engine-internal-calls", kScanner);
    (**MonoRuntime::start())
        .registerInternalCall("Scanner::ScanScriptCore", reinterpret_cast<const void*>(&scanScriptCore));
    const ObjectId s = spawnScript(*host, "Scanner");
    REQUIRE(host->setField(s, "scan", true));
    host->tick(0.016);
    REQUIRE(host->scriptFailureCount() == 0);

    const std::size_t declared = declaredInSources();
    REQUIRE(declared > 0);
    CHECK(gScanned.size() == declared);
    for (const auto& [name, function] : gScanned) {
        CHECK_MESSAGE(function != nullptr, name << " is not registered");
    }
    CHECK(gScanned.count("UEngine.UEntity:Internal_Find (string)") == 1);
    CHECK(static_cast<bool>(ModuleCallIndex::bridge().invoke));

    const Resolved first = gScanned;
    glue::registerEngineInternalCalls(**MonoRuntime::start());
    REQUIRE(host->setField(s, "scan", true));
    host->tick(0.016);
    CHECK(gScanned == first);
}
