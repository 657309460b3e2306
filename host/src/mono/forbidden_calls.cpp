#include "mono/forbidden_calls.hpp"

#include <algorithm>
#include <mono/metadata/blob.h>
#include <mono/metadata/metadata.h>
#include <mono/metadata/row-indexes.h>
#include <string_view>

namespace scripthost::mono {

namespace {

struct ForbiddenMethod {
    std::string_view nameSpace;
    std::string_view type;
    std::string_view method;
};

constexpr ForbiddenMethod kForbidden[] = {
    {"System.Threading", "Thread", "ResetAbort"},
};

} // namespace

std::vector<std::string> forbiddenCalls(MonoImage* image) {
    std::vector<std::string> found;
    const MonoTableInfo* members = mono_image_get_table_info(image, MONO_TABLE_MEMBERREF);
    const MonoTableInfo* types = mono_image_get_table_info(image, MONO_TABLE_TYPEREF);
    if (members == nullptr || types == nullptr)
        return found;
    const int memberRows = mono_table_info_get_rows(members);
    const int typeRows = mono_table_info_get_rows(types);
    for (int row = 0; row < memberRows; ++row) {
        std::uint32_t member[MONO_MEMBERREF_SIZE];
        mono_metadata_decode_row(members, row, member, MONO_MEMBERREF_SIZE);
        const std::string_view name = mono_metadata_string_heap(image, member[MONO_MEMBERREF_NAME]);
        const std::uint32_t parent = member[MONO_MEMBERREF_CLASS];
        if ((parent & MONO_MEMBERREF_PARENT_MASK) != MONO_MEMBERREF_PARENT_TYPEREF)
            continue;
        const int typeRow = static_cast<int>(parent >> MONO_MEMBERREF_PARENT_BITS) - 1;
        if (typeRow < 0 || typeRow >= typeRows)
            continue;
        std::uint32_t type[MONO_TYPEREF_SIZE];
        mono_metadata_decode_row(types, typeRow, type, MONO_TYPEREF_SIZE);
        const std::string_view typeName = mono_metadata_string_heap(image, type[MONO_TYPEREF_NAME]);
        const std::string_view nameSpace =
            mono_metadata_string_heap(image, type[MONO_TYPEREF_NAMESPACE]);
        for (const ForbiddenMethod& f : kForbidden) {
            if (f.method == name && f.type == typeName && f.nameSpace == nameSpace) {
                std::string full =
                    std::string(nameSpace) + "." + std::string(typeName) + "." + std::string(name);
                if (std::find(found.begin(), found.end(), full) == found.end())
                    found.push_back(std::move(full));
            }
        }
    }
    return found;
}

} // namespace scripthost::mono
