// loadAssemblyFromMemory: an assembly's bytes (and its .mdb symbols, when it has them) loaded into
// the current domain under an image name of the caller's, from a copy of the bytes; bytes that
// are not an assembly are refused with an error naming the file and Mono's reason (docs/MONO.md
// §3).
#include "../support/generation_code_support.hpp"
#include "assembly_from_memory.hpp"

#include <mono/metadata/image.h>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

// THROW is on line 5, what the symbols must point at.
constexpr const char* kLib = "using System;\n"
                             "public static class Lib {\n"
                             "    public static int Answer() { return 42; }\n"
                             "    public static void Fail() {\n"
                             "        throw new InvalidOperationException(\"THROW\");\n"
                             "    }\n"
                             "}\n";

// Calls Lib.Fail in `image` and returns the text of what it threw.
std::string failureText(MonoImage* image) {
    MonoClass* lib = mono_class_from_name(image, "", "Lib");
    REQUIRE(lib != nullptr);
    MonoMethod* fail = mono_class_get_method_from_name(lib, "Fail", 0);
    REQUIRE(fail != nullptr);
    MonoObject* exception = nullptr;
    mono_runtime_invoke(fail, nullptr, nullptr, &exception);
    REQUIRE(exception != nullptr);
    return mono::describeException(exception).text;
}

} // namespace

TEST_CASE("AssemblyFromMemory: the bytes load into the current domain under the given image "
          "name, from a copy of them") {
    (void)startBareRuntime();
    TempDir dir("assembly-from-memory");
    AssemblyFile file = compileScripts(dir, "Lib.dll", {{"Lib.cs", kLib}});
    auto domain = mono::GenerationDomain::create(61);
    REQUIRE_MESSAGE(domain, domain.error().message);
    const std::string name = std::string(mono_domain_get_friendly_name(domain->get())) + "/Lib";

    auto loaded = mono::loadAssemblyFromMemory(file, name);
    REQUIRE_MESSAGE(loaded, (loaded ? "" : loaded.error().message));
    MonoImage* image = mono_assembly_get_image(*loaded);
    CHECK(std::string(mono_image_get_filename(image)) == name);
    CHECK(std::string(mono_image_get_name(image)) == "Lib");
    CHECK(mono_image_get_assembly(image) == *loaded);

    // need_copy: the caller's bytes may change or go away once the load returned.
    std::fill(file.image.begin(), file.image.end(), '\0');
    file.image.clear();
    file.image.shrink_to_fit();
    CHECK(callStaticInt(image, "Lib", "Answer") == 42);
}

TEST_CASE("AssemblyFromMemory: symbols from memory give a managed stack its File.cs:LINE, and "
          "without them it has none") {
    (void)startBareRuntime();
    TempDir dir("assembly-from-memory");
    const AssemblyFile withSymbols = compileScripts(dir, "Lib.dll", {{"Lib.cs", kLib}});
    REQUIRE_FALSE(withSymbols.symbols.empty()); // mcs wrote Lib.dll.mdb
    AssemblyFile without = withSymbols;
    without.symbols.clear();

    auto domain = mono::GenerationDomain::create(62);
    REQUIRE_MESSAGE(domain, domain.error().message);
    const std::string prefix = mono_domain_get_friendly_name(domain->get());
    auto symbolic = mono::loadAssemblyFromMemory(withSymbols, prefix + "/with/Lib");
    REQUIRE_MESSAGE(symbolic, (symbolic ? "" : symbolic.error().message));
    const std::string text = failureText(mono_assembly_get_image(*symbolic));
    CHECK_MESSAGE(text.find("Lib.cs:5") != std::string::npos, text);

    auto other = mono::GenerationDomain::create(63); // one assembly "Lib" per domain
    REQUIRE_MESSAGE(other, other.error().message);
    auto bare = mono::loadAssemblyFromMemory(
        without, std::string(mono_domain_get_friendly_name(other->get())) + "/without/Lib");
    REQUIRE_MESSAGE(bare, (bare ? "" : bare.error().message));
    const std::string plain = failureText(mono_assembly_get_image(*bare));
    CHECK_MESSAGE(plain.find("THROW") != std::string::npos, plain);
    CHECK_MESSAGE(plain.find("Lib.cs:") == std::string::npos, plain);
}

TEST_CASE("AssemblyFromMemory: bytes that are not an assembly, or an image with a broken PE "
          "signature, are refused with an error naming the file and the reason") {
    (void)startBareRuntime();
    TempDir dir("assembly-from-memory");
    const AssemblyFile real = compileScripts(dir, "Lib.dll", {{"Lib.cs", kLib}});
    auto domain = mono::GenerationDomain::create(64);
    REQUIRE_MESSAGE(domain, domain.error().message);
    const std::string prefix = mono_domain_get_friendly_name(domain->get());

    AssemblyFile text;
    text.name = "Notes.dll";
    text.path = dir / "Notes.dll";
    const std::string words = "these are not the bytes of an assembly";
    text.image.assign(words.begin(), words.end());
    // A real image whose PE signature (at the offset the DOS header's e_lfanew gives) is broken.
    AssemblyFile broken = real;
    broken.path = dir / "Broken.dll";
    broken.symbols.clear();
    REQUIRE(broken.image.size() > 0x40);
    const auto lfanew = static_cast<std::size_t>(static_cast<unsigned char>(broken.image[0x3c])) |
                        static_cast<std::size_t>(static_cast<unsigned char>(broken.image[0x3d]))
                            << 8;
    REQUIRE(lfanew + 4 <= broken.image.size());
    REQUIRE(std::string(broken.image.data() + lfanew, 2) == "PE");
    broken.image[lfanew] = 'X';

    for (const AssemblyFile* bad : {&text, &broken}) {
        auto loaded = mono::loadAssemblyFromMemory(*bad, prefix + "/" + bad->path.stem().string());
        REQUIRE_FALSE(loaded);
        const std::string& message = loaded.error().message;
        MESSAGE(message);
        const std::string expected = bad->path.string() + " is not a valid assembly: ";
        CHECK(message.rfind(expected, 0) == 0);
        CHECK(message.size() > expected.size()); // Mono's reason follows
    }
    // A refused load leaves nothing behind: the real bytes still load after them.
    auto good = mono::loadAssemblyFromMemory(real, prefix + "/Lib");
    REQUIRE_MESSAGE(good, (good ? "" : good.error().message));
    CHECK(callStaticInt(mono_assembly_get_image(*good), "Lib", "Answer") == 42);
}
