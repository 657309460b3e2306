#include "assembly_from_memory.hpp"

#include <cstdint>
#include <fmt/format.h>
#include <mono/metadata/image.h>
#include <mono/metadata/mono-debug.h>

namespace scripthost::mono {

Result<MonoAssembly*> loadAssemblyFromMemory(const AssemblyFile& file,
                                             const std::string& imageName) {
    MonoImageOpenStatus status = MONO_IMAGE_OK;
    MonoImage* image = mono_image_open_from_data_with_name(
        const_cast<char*>(file.image.data()), static_cast<std::uint32_t>(file.image.size()),
        /*need_copy*/ 1, &status, /*refonly*/ 0, imageName.c_str());
    if (image == nullptr || status != MONO_IMAGE_OK) {
        return fail(fmt::format("{} is not a valid assembly: {}", file.path.string(),
                                mono_image_strerror(status)));
    }
    if (!file.symbols.empty()) {
        mono_debug_open_image_from_memory(image,
                                          reinterpret_cast<const mono_byte*>(file.symbols.data()),
                                          static_cast<int>(file.symbols.size()));
    }
    MonoAssembly* assembly = mono_assembly_load_from_full(image, imageName.c_str(), &status, 0);
    mono_image_close(image); // the assembly keeps its own reference
    if (assembly == nullptr || status != MONO_IMAGE_OK) {
        return fail(
            fmt::format("cannot load {}: {}", file.path.string(), mono_image_strerror(status)));
    }
    return assembly;
}

} // namespace scripthost::mono
