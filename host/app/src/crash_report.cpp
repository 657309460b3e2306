#include "crash_report.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

namespace fs = std::filesystem;

namespace scripthost {

namespace {

std::string frameName(const nlohmann::json& frame) {
    auto text = [&](const char* key) -> std::string {
        auto it = frame.find(key);
        return it != frame.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    std::string name = text("unmanaged_name");
    if (name.empty())
        name = text("native_address");
    const std::string offset = text("native_offset");
    const bool zeroOffset = offset.find_first_not_of("0x") == std::string::npos;
    if (!name.empty() && !zeroOffset && name.find('+') == std::string::npos)
        name += "+" + offset;
    return name;
}

} // namespace

std::string crashedThreadFrames(const std::string& reportJson, std::size_t count) {
    const nlohmann::json report = nlohmann::json::parse(reportJson, nullptr, false);
    if (!report.is_object() || !report.contains("threads") || !report["threads"].is_array())
        return {};
    for (const nlohmann::json& thread : report["threads"]) {
        const auto crashed = thread.find("crashed");
        if (crashed == thread.end() || !crashed->is_boolean() || !crashed->get<bool>())
            continue;
        const auto frames = thread.find("unmanaged_frames");
        if (frames == thread.end() || !frames->is_array())
            return {};
        std::vector<std::string> names;
        for (const nlohmann::json& frame : *frames) {
            if (names.size() == count)
                break;
            if (std::string name = frameName(frame); !name.empty())
                names.push_back(std::move(name));
        }
        return fmt::format("{}", fmt::join(names, " | "));
    }
    return {};
}

CrashReport collectCrashReport(const fs::path& folder) {
    std::error_code ec;
    std::vector<fs::path> reports;
    for (const fs::directory_entry& entry : fs::directory_iterator(fs::current_path(ec), ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("mono_crash.") && name.ends_with(".json") && entry.is_regular_file(ec))
            reports.push_back(entry.path());
    }
    CrashReport out;
    fs::file_time_type newestTime{};
    for (const fs::path& report : reports) {
        const fs::file_time_type written = fs::last_write_time(report, ec);
        fs::path now = report;
        if (!folder.empty()) {
            fs::create_directories(folder, ec);
            fs::path target = folder / report.filename();
            fs::rename(report, target, ec);
            if (ec) { // another file system: copy, then remove
                ec.clear();
                fs::copy_file(report, target, fs::copy_options::overwrite_existing, ec);
                if (!ec)
                    fs::remove(report, ec);
            }
            if (!ec)
                now = target;
        }
        if (out.file.empty() || written > newestTime) {
            out.file = now;
            newestTime = written;
        }
    }
    if (!out.file.empty()) {
        std::ifstream in(out.file);
        std::stringstream text;
        text << in.rdbuf();
        out.topFrames = crashedThreadFrames(text.str());
    }
    return out;
}

} // namespace scripthost
