// Fuzzes StateFile::load, the daemon's start-up read of --state FILE: the input is the
// file's content. Invariants:
// - load never fails on a file it can move (a corrupt state is not an error);
// - a file that loads saves and loads back to an equal scene, and stays where it is;
// - a file that does not load is reported with a message, moved aside byte for byte, and
//   nothing is left at the state path (so the next save cannot overwrite the evidence).

#include "fuzz_check.hpp"
#include "host/model/state_file.hpp"
#include "scene_equality.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

using namespace scripthost;
namespace fs = std::filesystem;

namespace {

/// A private folder for this fuzzing process, removed at exit.
const fs::path& workDir() {
    static const fs::path dir = [] {
        std::string pattern = (fs::temp_directory_path() / "scripthost-fuzz-state-XXXXXX").string();
        FUZZ_CHECK(::mkdtemp(pattern.data()) != nullptr, "a temp folder can be made");
        std::atexit([] {
            std::error_code ec;
            fs::remove_all(workDir(), ec);
        });
        return fs::path(pattern);
    }();
    return dir;
}

std::string readAll(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const fs::path& file, const std::string& content) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << content;
    FUZZ_CHECK(out.good(), "the state file can be written");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string content(reinterpret_cast<const char*>(data), size);
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(workDir()))
        fs::remove(entry.path(), ec);
    const StateFile state(workDir() / "world.json");
    writeAll(state.path(), content);

    const Result<StateFile::Loaded> loaded = state.load();
    FUZZ_CHECK(loaded.has_value(), "a corrupt state is reported, not an error");
    if (loaded->scene) {
        FUZZ_CHECK(loaded->problem.empty() && loaded->movedAsideTo.empty(), "a good file stays");
        FUZZ_CHECK(readAll(state.path()) == content, "loading leaves the file as it was");
        FUZZ_CHECK(state.save(*loaded->scene).has_value(), "a loaded state saves");
        const Result<StateFile::Loaded> again = state.load();
        FUZZ_CHECK(again.has_value() && again->scene.has_value(), "a saved state loads");
        FUZZ_CHECK(fuzzing::sameScene(*loaded->scene, *again->scene),
                   "a saved state loads to an equal scene");
        return 0;
    }
    FUZZ_CHECK(!loaded->problem.empty(), "a corrupt state file is reported with a reason");
    FUZZ_CHECK(!fs::exists(state.path()), "a corrupt state file does not stay in place");
    FUZZ_CHECK(loaded->movedAsideTo.parent_path() == workDir() &&
                   loaded->movedAsideTo.filename().string().starts_with("world.json.corrupt-"),
               "a corrupt state file is moved beside itself");
    FUZZ_CHECK(readAll(loaded->movedAsideTo) == content, "the corrupt file is kept byte for byte");
    return 0;
}
