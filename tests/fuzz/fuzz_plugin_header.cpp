// Fuzzes isManagedImage, which reads a plugin .dll's PE headers to tell a managed assembly from
// a native library (compiler-bridge/src/precompiled_assemblies.cpp). Invariants:
// - it never throws and reads nothing past the bytes it is given (ASan);
// - a managed image starts with "MZ", and is still one with bytes appended (every field it
//   reads lies within the headers), but not once its "MZ" is gone.

#include "fuzz_check.hpp"
#include "precompiled_assemblies.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using namespace scripthost::compiler;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    bool managed = false;
    try {
        managed = isManagedImage(bytes);
    } catch (...) {
        FUZZ_CHECK(false, "isManagedImage never throws");
    }
    if (!managed)
        return 0;
    FUZZ_CHECK(bytes.starts_with("MZ"), "a managed image starts with MZ");
    FUZZ_CHECK(isManagedImage(bytes + std::string(64, '\xff')),
               "bytes after the headers change nothing");
    std::string noMz = bytes;
    noMz[0] = 'X';
    FUZZ_CHECK(!isManagedImage(noMz), "without MZ it is not an image");
    return 0;
}
