#include "host/model/assembly_file.hpp"

#include <fstream>
#include <iterator>

namespace scripthost {

namespace {
Result<std::vector<char>> readAll(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return fail("cannot read " + path.string());
    }
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
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
