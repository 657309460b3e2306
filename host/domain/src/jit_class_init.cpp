#include "jit_class_init.hpp"

#include "runtime/il_reader.hpp"

#include <cstdint>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/attrdefs.h>
#include <mono/metadata/class.h>
#include <mono/metadata/loader.h>
#include <mono/metadata/metadata.h>

namespace scripthost::mono {

namespace {

// Whether the JIT runs `klass`'s static constructor when it compiles an access to one of its
// static fields: a beforefieldinit class with a .cctor, outside corlib.
bool initializedWhenCompiled(MonoClass* klass) {
    if (klass == nullptr)
        return true;
    if (mono_class_get_image(klass) == mono_get_corlib())
        return false;
    if ((mono_class_get_flags(klass) & MONO_TYPE_ATTR_BEFORE_FIELD_INIT) == 0)
        return false;
    return mono_class_get_method_from_name(klass, ".cctor", 0) != nullptr;
}

} // namespace

bool compilingMayRunStaticConstructor(MonoMethod* method) {
    std::uint32_t implFlags = 0;
    const std::uint32_t flags = mono_method_get_flags(method, &implFlags);
    constexpr std::uint32_t kNoBody = MONO_METHOD_ATTR_ABSTRACT | MONO_METHOD_ATTR_PINVOKE_IMPL;
    constexpr std::uint32_t kNotIl =
        MONO_METHOD_IMPL_ATTR_INTERNAL_CALL | MONO_METHOD_IMPL_ATTR_RUNTIME;
    if ((flags & kNoBody) != 0 || (implFlags & kNotIl) != 0)
        return false;
    // After compiling any method, the JIT initializes the method's own class when it is
    // beforefieldinit (mini.c, the end of mono_jit_compile_method_inner).
    if (initializedWhenCompiled(mono_method_get_class(method)))
        return true;
    MonoImage* image = mono_class_get_image(mono_method_get_class(method));
    bool may = false;
    const bool read = forEachInstruction(method, [&](const IlInstruction& instruction) {
        const MonoOpcodeEnum op = instruction.opcode;
        if (op != MONO_CEE_LDSFLD && op != MONO_CEE_LDSFLDA && op != MONO_CEE_STSFLD)
            return true;
        MonoClass* owner = nullptr;
        MonoClassField* field = mono_field_from_token(image, instruction.token(), &owner, nullptr);
        may = field == nullptr || initializedWhenCompiled(mono_field_get_parent(field));
        return !may;
    });
    return may || !read; // a body that cannot be read: the safe answer
}

} // namespace scripthost::mono
