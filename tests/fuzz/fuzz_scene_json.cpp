// Fuzzes the scene / snapshot JSON loader: Scene::fromText (what Scene::load runs on a
// file's content), and valueFromJson on every script field value the scene holds.
// Invariants:
// - nothing throws; a refused scene has a message;
// - a scene that loads saves (toJson) to JSON that loads to an equal scene;
// - a field value accepted for a type saves (valueToJson) to JSON that is accepted again
//   and saves to the same JSON.

#include "fuzz_check.hpp"
#include "host/model/scene.hpp"
#include "host/model/value.hpp"
#include "scene_equality.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

using namespace scripthost;
using nlohmann::json;

namespace {

FieldType scalar(ValueKind kind) {
    FieldType type;
    type.kind = kind;
    type.typeName = std::string(kindName(kind));
    return type;
}

FieldType container(ValueKind kind, FieldType element) {
    FieldType type = scalar(kind);
    type.element.push_back(std::move(element));
    return type;
}

/// One field type of every kind a scene can hold (the types come from the scripts at
/// run time; here they are fixed, and every field value is tried against each).
const std::vector<FieldType>& fieldTypes() {
    static const std::vector<FieldType> types = [] {
        std::vector<FieldType> all;
        for (ValueKind kind :
             {ValueKind::Bool, ValueKind::Int8, ValueKind::UInt8, ValueKind::Int16,
              ValueKind::UInt16, ValueKind::Int32, ValueKind::UInt32, ValueKind::Int64,
              ValueKind::UInt64, ValueKind::Float, ValueKind::Double, ValueKind::String,
              ValueKind::Vector2, ValueKind::Vector3, ValueKind::Vector4, ValueKind::Quaternion,
              ValueKind::ObjectRef})
            all.push_back(scalar(kind));
        FieldType mood = scalar(ValueKind::Enum);
        mood.typeName = "Demo.Mood";
        mood.enumMembers = {{"Calm", 0}, {"Angry", 7}, {"Lowest", INT64_MIN}};
        all.push_back(mood);
        all.push_back(container(ValueKind::Array, scalar(ValueKind::Int32)));
        all.push_back(container(ValueKind::List, scalar(ValueKind::Vector3)));
        all.push_back(container(ValueKind::Array, mood));
        FieldType record = scalar(ValueKind::Record);
        record.typeName = "Demo.Stats";
        record.recordIsClass = true;
        record.members = {{"hp", scalar(ValueKind::UInt16)},
                          {"name", scalar(ValueKind::String)},
                          {"tags", container(ValueKind::List, scalar(ValueKind::String))}};
        all.push_back(record);
        all.push_back(container(ValueKind::List, record));
        return all;
    }();
    return types;
}

void checkFieldValue(const json& value) {
    for (const FieldType& type : fieldTypes()) {
        const Result<Value> first = valueFromJson(value, type);
        if (!first) {
            FUZZ_CHECK(!first.error().message.empty(), "a refused value says why");
            continue;
        }
        const json saved = valueToJson(*first, type);
        const Result<Value> second = valueFromJson(saved, type);
        FUZZ_CHECK(second.has_value(), "a saved value loads again");
        FUZZ_CHECK(valueToJson(*second, type) == saved, "a value saves the same twice");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const Result<Scene> scene = Scene::fromText(text);
    if (!scene) {
        FUZZ_CHECK(!scene.error().message.empty(), "a refused scene says why");
        return 0;
    }
    const Result<Scene> again = Scene::fromText(scene->toJson().dump());
    FUZZ_CHECK(again.has_value(), "a saved scene loads again");
    FUZZ_CHECK(fuzzing::sameScene(*scene, *again), "a saved scene loads to an equal scene");

    for (const SceneEntity& entity : scene->entities)
        for (const SceneScript& script : entity.scripts)
            for (const auto& [name, value] : script.fields.items())
                checkFieldValue(value);
    return 0;
}
