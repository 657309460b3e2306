#pragma once
// HostGameWorld: the GameWorld a game module sees, over the host's World and input.

#include "scripthost/game/game_module.hpp"

namespace scripthost {

class ScriptHost;

class HostGameWorld final : public game::GameWorld {
public:
    explicit HostGameWorld(ScriptHost& host) noexcept : host_(host) {}

    [[nodiscard]] std::vector<ObjectId> entities() const override;
    [[nodiscard]] ObjectId findEntity(std::string_view name) const override;
    [[nodiscard]] bool isAlive(ObjectId id) const override;
    [[nodiscard]] std::string name(ObjectId entity) const override;
    [[nodiscard]] Transform* transform(ObjectId entity) override;
    [[nodiscard]] Transform worldTransform(ObjectId entity) const override;
    [[nodiscard]] ObjectId parent(ObjectId entity) const override;
    [[nodiscard]] std::vector<ObjectId> children(ObjectId entity) const override;
    Result<void> setParent(ObjectId child, ObjectId parent, bool keepWorld) override;
    [[nodiscard]] bool hasComponent(ObjectId entity, std::string_view kind) const override;
    [[nodiscard]] ObjectId entityOf(ObjectId id) const override;
    [[nodiscard]] std::vector<std::string> scriptClasses(ObjectId entity) const override;
    ObjectId createEntity(std::string name, const Transform& transform) override;
    [[nodiscard]] Result<ObjectId> addComponent(ObjectId entity, std::string kind) override;
    void destroy(ObjectId id) override;
    [[nodiscard]] float input(std::string_view action) const override;
    void setInput(std::string action, float value) override;

private:
    ScriptHost& host_;
};

} // namespace scripthost
