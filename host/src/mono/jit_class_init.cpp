#include "mono/jit_class_init.hpp"

#include <cstdint>
#include <cstring>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/attrdefs.h>
#include <mono/metadata/class.h>
#include <mono/metadata/loader.h>
#include <mono/metadata/metadata.h>
#include <mono/metadata/opcodes.h>

namespace scripthost::mono {

namespace {

// Bytes of an instruction's operand after its opcode; -1 for `switch` (variable).
int operandBytes(unsigned char argument) {
    switch (argument) {
    case MonoInlineNone:
        return 0;
    case MonoShortInlineVar:
    case MonoShortInlineBrTarget:
    case MonoShortInlineI:
        return 1;
    case MonoInlineVar:
        return 2;
    case MonoInlineType:
    case MonoInlineField:
    case MonoInlineMethod:
    case MonoInlineTok:
    case MonoInlineString:
    case MonoInlineSig:
    case MonoInlineBrTarget:
    case MonoShortInlineR:
    case MonoInlineI:
        return 4;
    case MonoInlineR:
    case MonoInlineI8:
        return 8;
    default:
        return -1;
    }
}

std::uint32_t readU32(const mono_byte* p) {
    std::uint32_t v = 0;
    std::memcpy(&v, p, sizeof v); // IL is little-endian, as is every host we build for
    return v;
}

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

// The method's IL, freed with it.
class MethodBody {
public:
    explicit MethodBody(MonoMethod* method) : header_(mono_method_get_header(method)) {}
    MethodBody(const MethodBody&) = delete;
    MethodBody& operator=(const MethodBody&) = delete;
    ~MethodBody() {
        if (header_ != nullptr)
            mono_metadata_free_mh(header_);
    }
    [[nodiscard]] const mono_byte* code(std::uint32_t& size) const {
        if (header_ == nullptr)
            return nullptr;
        std::uint32_t maxStack = 0;
        return mono_method_header_get_code(header_, &size, &maxStack);
    }

private:
    MonoMethodHeader* header_;
};

} // namespace

bool compilingMayRunStaticConstructor(MonoMethod* method) {
    std::uint32_t implFlags = 0;
    const std::uint32_t flags = mono_method_get_flags(method, &implFlags);
    constexpr std::uint32_t kNoBody = MONO_METHOD_ATTR_ABSTRACT | MONO_METHOD_ATTR_PINVOKE_IMPL;
    constexpr std::uint32_t kNotIl =
        MONO_METHOD_IMPL_ATTR_INTERNAL_CALL | MONO_METHOD_IMPL_ATTR_RUNTIME;
    if ((flags & kNoBody) != 0 || (implFlags & kNotIl) != 0)
        return false;
    MethodBody body(method);
    std::uint32_t size = 0;
    const mono_byte* ip = body.code(size);
    if (ip == nullptr)
        return true;
    const mono_byte* const end = ip + size;
    MonoImage* image = mono_class_get_image(mono_method_get_class(method));
    while (ip < end) {
        const MonoOpcodeEnum op = mono_opcode_value(&ip, end);
        if (op < 0 || op >= MONO_CEE_LAST)
            return true; // not IL we know: the safe answer
        ++ip; // mono_opcode_value leaves ip on the opcode's last byte
        int bytes = operandBytes(mono_opcodes[op].argument);
        if (bytes < 0) { // switch: a count, then that many 4-byte targets
            if (end - ip < 4)
                return true;
            bytes = 4 + 4 * static_cast<int>(readU32(ip));
        }
        if (end - ip < bytes)
            return true;
        if (op == MONO_CEE_LDSFLD || op == MONO_CEE_LDSFLDA || op == MONO_CEE_STSFLD) {
            MonoClass* owner = nullptr;
            MonoClassField* field = mono_field_from_token(image, readU32(ip), &owner, nullptr);
            if (field == nullptr || initializedWhenCompiled(mono_field_get_parent(field)))
                return true;
        }
        ip += bytes;
    }
    return false;
}

} // namespace scripthost::mono
