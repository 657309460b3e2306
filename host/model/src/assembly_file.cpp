#include "host/model/assembly_file.hpp"

#include <fstream>

namespace scripthost {

namespace {
// In one read of the size the file has: a reload reads every assembly of the project, with its
// .mdb, on the main thread at a frame boundary (20 assemblies in bench_edit_to_live's project by
// folder), where a byte at a time (istreambuf_iterator) cost a call per byte.
Result<std::vector<char>> readAll(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) { // opens, and tells a size of 2^63 - 1
        return fail("cannot read " + path.string() + ": it is a folder");
    }
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) {
        return fail("cannot read " + path.string());
    }
    const std::streamoff size = in.tellg();
    if (size < 0 || !in.seekg(0)) {
        return fail("error while reading " + path.string());
    }
    std::vector<char> bytes(static_cast<std::size_t>(size));
    in.read(bytes.data(), size);
    if (in.bad() || in.gcount() != size) { // shorter than its size a moment ago: being written
        return fail("error while reading " + path.string());
    }
    return bytes;
}
} // namespace

Result<AssemblyFile> AssemblyFile::read(const std::filesystem::path& dll) {
    AssemblyFile file;
    file.name = dll.filename().string();
    file.path = dll;
    auto image = readAll(dll);
    if (!image) {
        return std::unexpected(image.error());
    }
    if (image->empty()) {
        return fail(dll.string() + " is empty");
    }
    file.image = std::move(*image);
    std::filesystem::path mdb = dll;
    mdb += ".mdb";
    std::error_code ec;
    if (std::filesystem::exists(mdb, ec)) {
        auto symbols = readAll(mdb);
        if (!symbols) {
            return std::unexpected(symbols.error());
        }
        file.symbols = std::move(*symbols);
    }
    return file;
}

} // namespace scripthost
