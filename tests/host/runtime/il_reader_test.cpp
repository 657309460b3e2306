// forEachInstruction: a method body's IL, instruction by instruction. Against corlib's own
// methods: one with a body, one without (an internal call).
#include "../support/mono_test_support.hpp"
#include "runtime/il_reader.hpp"

#include <mono/metadata/appdomain.h>
#include <mono/metadata/class.h>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

MonoMethod* corlibMethod(const char* klass, const char* name, int params) {
    MonoClass* c = mono_class_from_name(mono_get_corlib(), "System", klass);
    REQUIRE(c != nullptr);
    MonoMethod* m = mono_class_get_method_from_name(c, name, params);
    REQUIRE(m != nullptr);
    return m;
}

} // namespace

TEST_CASE("IL reader: a body is read to its end, offsets rising by each instruction's size") {
    (void)startBareRuntime();
    // string.IsNullOrEmpty(string): a short body that ends in ret.
    MonoMethod* method = corlibMethod("String", "IsNullOrEmpty", 1);
    std::vector<mono::IlInstruction> seen;
    const bool whole = mono::forEachInstruction(method, [&](const mono::IlInstruction& i) {
        seen.push_back(i);
        return true;
    });
    CHECK(whole);
    REQUIRE(seen.size() >= 3);
    CHECK(seen.front().offset == 0);
    CHECK(seen.back().opcode == MONO_CEE_RET);
    for (std::size_t k = 1; k < seen.size(); ++k)
        CHECK(seen[k].offset > seen[k - 1].offset);
    // A call in the body has a 4-byte token operand naming a method (table 0x06 or 0x0a).
    const bool callsSomething = std::any_of(seen.begin(), seen.end(), [](const auto& i) {
        return (i.opcode == MONO_CEE_CALL || i.opcode == MONO_CEE_CALLVIRT) &&
               i.operandSize == 4 && ((i.token() >> 24) == 0x06 || (i.token() >> 24) == 0x0a);
    });
    const bool readsLength = std::any_of(seen.begin(), seen.end(), [](const auto& i) {
        return i.opcode == MONO_CEE_LDFLD || i.opcode == MONO_CEE_CALLVIRT ||
               i.opcode == MONO_CEE_CALL;
    });
    CHECK((callsSomething || readsLength));

    // The visitor can stop early.
    int visits = 0;
    mono::forEachInstruction(method, [&](const mono::IlInstruction&) { return ++visits < 2; });
    CHECK(visits == 2);
}

TEST_CASE("IL reader: a method without IL (an internal call) cannot be read") {
    (void)startBareRuntime();
    int visits = 0;
    // object.GetType() is implemented by the runtime itself.
    CHECK_FALSE(mono::forEachInstruction(corlibMethod("Object", "GetType", 0),
                                         [&](const mono::IlInstruction&) {
                                             ++visits;
                                             return true;
                                         }));
    CHECK(visits == 0);
}
