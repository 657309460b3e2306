#include "runtime/il_reader.hpp"

#include <memory>
#include <mono/metadata/loader.h>
#include <mono/metadata/metadata.h>

namespace scripthost::mono {

namespace {

struct HeaderDeleter {
    void operator()(MonoMethodHeader* header) const noexcept { mono_metadata_free_mh(header); }
};
using HeaderPtr = std::unique_ptr<MonoMethodHeader, HeaderDeleter>;

std::uint32_t read32(const mono_byte* at) noexcept {
    return static_cast<std::uint32_t>(at[0]) | static_cast<std::uint32_t>(at[1]) << 8 |
           static_cast<std::uint32_t>(at[2]) << 16 | static_cast<std::uint32_t>(at[3]) << 24;
}

// Bytes of an instruction's operand, from the opcode table's argument kind; -1 when it runs
// past the body.
std::ptrdiff_t operandSize(int argument, const mono_byte* operand, const mono_byte* end) {
    switch (argument) {
    case MonoInlineNone:
        return 0;
    case MonoShortInlineVar:
    case MonoShortInlineBrTarget:
    case MonoShortInlineI:
        return 1;
    case MonoInlineVar:
        return 2;
    case MonoInlineI8:
    case MonoInlineR:
        return 8;
    case MonoInlineSwitch:
        if (end - operand < 4)
            return -1;
        return 4 + 4 * static_cast<std::ptrdiff_t>(read32(operand));
    default: // tokens, 32-bit immediates and branch targets, ShortInlineR
        return 4;
    }
}

} // namespace

std::uint32_t IlInstruction::token() const noexcept {
    return operandSize == 4 ? read32(operand) : 0;
}

bool forEachInstruction(MonoMethod* method,
                        const std::function<bool(const IlInstruction&)>& visit) {
    HeaderPtr header(mono_method_get_header(method));
    if (!header)
        return false;
    std::uint32_t size = 0;
    std::uint32_t maxStack = 0;
    const mono_byte* code = mono_method_header_get_code(header.get(), &size, &maxStack);
    if (code == nullptr)
        return false;
    const mono_byte* ip = code;
    const mono_byte* const end = code + size;
    while (ip < end) {
        const mono_byte* const start = ip;
        const MonoOpcodeEnum op = mono_opcode_value(&ip, end); // leaves ip on its last byte
        if (op < 0 || op >= MONO_CEE_LAST)
            return false; // not IL we understand: stop rather than misread
        ++ip;
        const std::ptrdiff_t operand = operandSize(mono_opcodes[op].argument, ip, end);
        if (operand < 0 || end - ip < operand)
            return false;
        if (!visit(IlInstruction{op, ip, operand, static_cast<std::uint32_t>(start - code)}))
            return true;
        ip += operand;
    }
    return true;
}

} // namespace scripthost::mono
