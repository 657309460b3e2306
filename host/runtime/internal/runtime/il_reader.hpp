#pragma once
// forEachInstruction: a method body's IL, one instruction at a time (opcode, operand and
// offset), for the scans that read script code: forbidden calls (forbidden_calls.cpp) and
// what compiling a method can run (jit_class_init.cpp).

#include <cstdint>
#include <functional>
#include <mono/metadata/object.h>
#include <mono/metadata/opcodes.h>

namespace scripthost::mono {

/// One instruction: its opcode, where its operand starts (`operandSize` bytes) and its offset
/// in the body.
struct IlInstruction {
    MonoOpcodeEnum opcode;
    const mono_byte* operand;
    std::ptrdiff_t operandSize;
    std::uint32_t offset;
    /// The operand as a 32-bit little-endian value (a token), when it has four bytes.
    [[nodiscard]] std::uint32_t token() const noexcept;
};

/// Calls `visit` for each instruction of `method`'s body, in order, until it returns false.
/// Returns false when the body cannot be read to its end (no IL, an opcode or operand Mono's
/// table does not know): the caller decides what that means.
bool forEachInstruction(MonoMethod* method, const std::function<bool(const IlInstruction&)>& visit);

} // namespace scripthost::mono
