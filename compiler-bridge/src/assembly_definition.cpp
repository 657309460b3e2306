#include "compiler_bridge/assembly_definition.hpp"

#include "layout_text.hpp"
#include "unity_meta_file.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace scripthost::compiler {
namespace {

using Json = nlohmann::json;

std::string quoted(std::string_view field) {
    return "\"" + std::string(field) + "\"";
}

std::string fieldError(const std::filesystem::path& file, std::string_view field,
                       std::string_view what) {
    return file.string() + ": " + quoted(field) + " " + std::string(what);
}

std::string unsupported(const std::filesystem::path& file, std::string_view field) {
    return file.string() + ": " + quoted(field) + " is not supported, ignored";
}

/// "line:column" of the 1-based byte position nlohmann reports for a parse error.
std::string lineColumn(std::string_view text, std::size_t byte) {
    const std::size_t offset = std::min(byte == 0 ? 0 : byte - 1, text.size());
    const std::string_view before = text.substr(0, offset);
    const std::size_t line = 1 + static_cast<std::size_t>(std::ranges::count(before, '\n'));
    const std::size_t lineStart = before.rfind('\n');
    const std::size_t column =
        lineStart == std::string_view::npos ? offset + 1 : offset - lineStart;
    return std::to_string(line) + ":" + std::to_string(column);
}

/// nlohmann's message without its "[json.exception...] parse error at line L, column C: ".
std::string parseErrorText(const Json::parse_error& error) {
    const std::string what = error.what();
    const std::size_t column = what.find("column ");
    const std::size_t colon =
        column == std::string::npos ? what.find("] ") : what.find(": ", column);
    return colon == std::string::npos ? what : what.substr(colon + 2);
}

Result<Json> parseObject(const std::filesystem::path& file, std::string_view text) {
    Json json;
    try {
        json = Json::parse(text);
    } catch (const Json::parse_error& error) {
        return fail(file.string() + ":" + lineColumn(text, error.byte) +
                    ": malformed JSON: " + parseErrorText(error));
    }
    if (!json.is_object()) {
        return fail(file.string() + ":1:1: the top level is not a JSON object");
    }
    return json;
}

Result<std::string> readText(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) {
        return fail(file.string() + ": cannot be read");
    }
    return text.str();
}

/// An array of strings, or an error naming the field.
Result<std::vector<std::string>> stringArray(const std::filesystem::path& file,
                                             std::string_view field, const Json& value) {
    if (!value.is_array() ||
        !std::ranges::all_of(value, [](const Json& item) { return item.is_string(); })) {
        return fail(fieldError(file, field, "is not an array of strings"));
    }
    return value.get<std::vector<std::string>>();
}

Result<bool> boolean(const std::filesystem::path& file, std::string_view field, const Json& value) {
    if (!value.is_boolean()) {
        return fail(fieldError(file, field, "is not true or false"));
    }
    return value.get<bool>();
}

/// A name, or "GUID:" and 32 hex digits; an error naming the field otherwise.
Result<std::string> reference(const std::filesystem::path& file, std::string_view field,
                              const std::string& text) {
    if (text.empty()) {
        return fail(fieldError(file, field, "has an empty reference"));
    }
    if (text.starts_with("GUID:") && !referencedGuid(text)) {
        return fail(
            fieldError(file, field, "has \"" + text + "\", which is not GUID: and 32 hex digits"));
    }
    return text;
}

Result<std::string> nonEmptyName(const std::filesystem::path& file, const Json& json,
                                 std::string_view field) {
    const auto it = json.find(field);
    if (it == json.end()) {
        return fail(fieldError(file, field, "is missing"));
    }
    if (!it->is_string() || it->get<std::string>().empty()) {
        return fail(fieldError(file, field, "is not a non-empty string"));
    }
    return it->get<std::string>();
}

/// One field other than `name`: applied to `definition`, warned about, or an error.
Result<void> applyField(AssemblyDefinition& definition, const std::string& field,
                        const Json& value) {
    const std::filesystem::path& file = definition.file;
    if (field == "references") {
        auto list = stringArray(file, field, value);
        if (!list) {
            return std::unexpected(list.error());
        }
        for (const std::string& item : *list) {
            auto checked = reference(file, field, item);
            if (!checked) {
                return std::unexpected(checked.error());
            }
        }
        definition.references = std::move(*list);
    } else if (field == "includePlatforms" || field == "excludePlatforms" ||
               field == "precompiledReferences" || field == "defineConstraints") {
        auto list = stringArray(file, field, value);
        if (!list) {
            return std::unexpected(list.error());
        }
        if (field == "includePlatforms") {
            definition.editorOnly = *list == std::vector<std::string>{"Editor"};
        } else if (field == "defineConstraints") {
            definition.defineConstraints = std::move(*list);
        } else if (field == "precompiledReferences") {
            definition.precompiledReferences = std::move(*list);
        }
    } else if (field == "allowUnsafeCode" || field == "autoReferenced" ||
               field == "overrideReferences" || field == "noEngineReferences") {
        auto flag = boolean(file, field, value);
        if (!flag) {
            return std::unexpected(flag.error());
        }
        if (field == "allowUnsafeCode") {
            definition.allowUnsafeCode = *flag;
        } else if (field == "autoReferenced") {
            definition.autoReferenced = *flag;
        } else if (field == "overrideReferences") {
            definition.overrideReferences = *flag;
        }
    } else if (field == "rootNamespace") {
        if (!value.is_string()) {
            return fail(fieldError(file, field, "is not a string"));
        }
        definition.rootNamespace = value.get<std::string>();
    } else if (field == "versionDefines") {
        if (!value.is_array()) {
            return fail(fieldError(file, field, "is not an array"));
        }
        if (!value.empty()) {
            definition.warnings.push_back(unsupported(file, field));
        }
    } else {
        definition.warnings.push_back(unsupported(file, field));
    }
    return {};
}

} // namespace

std::optional<std::string> referencedGuid(std::string_view reference) {
    constexpr std::string_view prefix = "GUID:";
    if (!reference.starts_with(prefix) || !isHexGuid(reference.substr(prefix.size()))) {
        return std::nullopt;
    }
    return lowerCase(reference.substr(prefix.size()));
}

Result<AssemblyDefinition> parseAssemblyDefinition(const std::filesystem::path& file,
                                                   std::string_view text) {
    auto json = parseObject(file, text);
    if (!json) {
        return std::unexpected(json.error());
    }
    AssemblyDefinition definition;
    definition.file = file;
    auto name = nonEmptyName(file, *json, "name");
    if (!name) {
        return std::unexpected(name.error());
    }
    definition.name = std::move(*name);
    for (const auto& [field, value] : json->items()) {
        if (field == "name") {
            continue;
        }
        if (auto applied = applyField(definition, field, value); !applied) {
            return std::unexpected(applied.error());
        }
    }
    return definition;
}

Result<AssemblyDefinition> readAssemblyDefinition(const std::filesystem::path& file) {
    auto text = readText(file);
    if (!text) {
        return std::unexpected(text.error());
    }
    auto definition = parseAssemblyDefinition(file, *text);
    if (definition) {
        std::filesystem::path meta = file;
        meta += ".meta";
        UnityMetaFile read = readUnityMeta(meta);
        definition->guid = std::move(read.guid);
        definition->warnings.insert(definition->warnings.end(), read.warnings.begin(),
                                    read.warnings.end());
    }
    return definition;
}

Result<AssemblyDefinitionReference>
parseAssemblyDefinitionReference(const std::filesystem::path& file, std::string_view text) {
    auto json = parseObject(file, text);
    if (!json) {
        return std::unexpected(json.error());
    }
    AssemblyDefinitionReference asmref;
    asmref.file = file;
    auto target = nonEmptyName(file, *json, "reference");
    if (!target) {
        return std::unexpected(target.error());
    }
    auto checked = reference(file, "reference", *target);
    if (!checked) {
        return std::unexpected(checked.error());
    }
    asmref.reference = std::move(*checked);
    for (const auto& [field, value] : json->items()) {
        if (field != "reference") {
            asmref.warnings.push_back(unsupported(file, field));
        }
    }
    return asmref;
}

Result<AssemblyDefinitionReference>
readAssemblyDefinitionReference(const std::filesystem::path& file) {
    auto text = readText(file);
    if (!text) {
        return std::unexpected(text.error());
    }
    return parseAssemblyDefinitionReference(file, *text);
}

} // namespace scripthost::compiler
