#include "field_types.hpp"

#include "field_layout.hpp"
#include "runtime/mono_text.hpp"

#include <algorithm>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/attrdefs.h>
#include <mono/metadata/metadata.h>
#include <string_view>
#include <vector>

namespace scripthost::mono {

namespace {

// The name Mono gives a type ("System.Collections.Generic.List`1<int>").
std::string typeNameOf(MonoType* type) {
    char* name = mono_type_get_name(type);
    std::string text = name ? name : "?";
    mono_free(name);
    return text;
}

// An enum: its members with their values, read from the class's literal statics.
void describeEnum(MonoClass* klass, FieldType& out) {
    out.kind = ValueKind::Enum;
    MonoVTable* vtable = mono_class_vtable(mono_domain_get(), klass);
    IntegerLayout layout{8, true};
    integerLayout(enumStorage(klass), layout);
    void* iter = nullptr;
    while (MonoClassField* member = mono_class_get_fields(klass, &iter)) {
        const auto flags = mono_field_get_flags(member);
        if ((flags & MONO_FIELD_ATTR_LITERAL) == 0 || (flags & MONO_FIELD_ATTR_STATIC) == 0) {
            continue; // value__ is the instance field that holds the value
        }
        std::int64_t raw = 0; // wide enough for every underlying type; low bytes first
        if (vtable != nullptr) {
            mono_field_static_get_value(vtable, member, &raw);
        }
        out.enumMembers.emplace_back(mono_field_get_name(member), signExtend(raw, layout));
    }
}

// The [FormerlySerializedAs] names of a record member (constructed only when it has one).
std::vector<std::string> formerNamesOf(MonoCustomAttrInfo* attrs, const TypeClasses& classes) {
    std::vector<std::string> names;
    if (classes.formerlySerializedAs == nullptr ||
        !mono_custom_attrs_has_attr(attrs, classes.formerlySerializedAs)) {
        return names;
    }
    if (MonoArray* objects = mono_custom_attrs_construct(attrs)) {
        for (uintptr_t i = 0; i < mono_array_length(objects); ++i) {
            MonoObject* attribute = mono_array_get(objects, MonoObject*, i);
            if (mono_object_get_class(attribute) == classes.formerlySerializedAs)
                names.push_back(stringProperty(attribute, "OldName"));
        }
    }
    return names;
}

// base classes first; statics, literals and [NonSerialized] fields left out.
void describeRecord(MonoClass* klass, bool isClass, const TypeClasses& classes, int depth,
                    FieldType& out) {
    constexpr int kMaxDepth = 4; // deeper (or self-referencing) types are not carried
    if (depth >= kMaxDepth)
        return;
    // Only the game's own types: the class libraries' [Serializable] types (Dictionary,
    // DateTime, …) keep their state in private fields this scheme would silently skip.
    if (mono_class_get_image(klass) == mono_get_corlib())
        return;
    std::vector<MonoClass*> chain;
    for (MonoClass* k = klass;
         k != nullptr && k != mono_get_object_class() && k != mono_get_enum_class() &&
         std::string_view(mono_class_get_name(k)) != "ValueType";
         k = mono_class_get_parent(k)) {
        chain.push_back(k);
        if (!isClass)
            break;
    }
    std::reverse(chain.begin(), chain.end());
    std::vector<MemberType> members;
    for (MonoClass* k : chain) {
        void* iter = nullptr;
        while (MonoClassField* f = mono_class_get_fields(k, &iter)) {
            const auto flags = mono_field_get_flags(f);
            if ((flags & (MONO_FIELD_ATTR_STATIC | MONO_FIELD_ATTR_LITERAL |
                          MONO_FIELD_ATTR_NOT_SERIALIZED)) != 0) {
                continue;
            }
            bool serialized = (flags & MONO_FIELD_ATTR_FIELD_ACCESS_MASK) == MONO_FIELD_ATTR_PUBLIC;
            std::vector<std::string> formerNames;
            if (MonoCustomAttrInfo* attrs = mono_custom_attrs_from_field(k, f)) {
                if (!serialized && classes.serializeField != nullptr)
                    serialized = mono_custom_attrs_has_attr(attrs, classes.serializeField);
                if (serialized)
                    formerNames = formerNamesOf(attrs, classes);
                mono_custom_attrs_free(attrs);
            }
            if (!serialized)
                continue;
            FieldType member = fieldTypeOf(mono_field_get_type(f), classes, depth + 1);
            if (member.kind == ValueKind::Unsupported)
                return; // all or nothing: never half a value
            members.push_back(
                MemberType{mono_field_get_name(f), std::move(member), std::move(formerNames)});
        }
    }
    if (members.empty())
        return; // nothing to carry: say so instead of carrying nothing
    out.kind = ValueKind::Record;
    out.recordIsClass = isClass;
    out.members = std::move(members);
}

} // namespace

FieldType fieldTypeOf(MonoType* type, const TypeClasses& classes, int depth) {
    FieldType out;
    out.typeName = typeNameOf(type);
    const int code = mono_type_get_type(type);
    bool ok = false;
    out.kind = kindOfTypeCode(code, ok);
    if (ok)
        return out;
    out.kind = ValueKind::Unsupported;
    MonoClass* klass = mono_class_from_mono_type(type);
    switch (code) {
    case MONO_TYPE_VALUETYPE:
        if (klass == classes.vector2)
            out.kind = ValueKind::Vector2;
        else if (klass == classes.vector3)
            out.kind = ValueKind::Vector3;
        else if (klass == classes.vector4)
            out.kind = ValueKind::Vector4;
        else if (klass == classes.quaternion)
            out.kind = ValueKind::Quaternion;
        else if (mono_class_is_enum(klass))
            describeEnum(klass, out);
        else if ((mono_class_get_flags(klass) & MONO_TYPE_ATTR_SERIALIZABLE) != 0) {
            describeRecord(klass, false, classes, depth, out);
        }
        break;
    case MONO_TYPE_CLASS:
        if (klass == classes.entity || klass == classes.transform) {
            out.kind = ValueKind::ObjectRef;
            out.refTarget = RefTarget::Entity;
        } else if (mono_class_is_subclass_of(klass, classes.scriptBase, false)) {
            out.kind = ValueKind::ObjectRef;
            out.refTarget = RefTarget::Script;
        } else if (mono_class_is_subclass_of(klass, classes.component, false)) {
            out.kind = ValueKind::ObjectRef;
            out.refTarget = RefTarget::Component;
        } else if ((mono_class_get_flags(klass) & MONO_TYPE_ATTR_SERIALIZABLE) != 0 &&
                   (mono_class_get_flags(klass) & MONO_TYPE_ATTR_ABSTRACT) == 0 &&
                   listItemsField(klass) == nullptr) {
            describeRecord(klass, true, classes, depth, out);
        }
        break;
    case MONO_TYPE_SZARRAY:
    case MONO_TYPE_GENERICINST: {
        MonoType* element = elementTypeOf(type);
        if (element == nullptr)
            break;
        FieldType elementType = fieldTypeOf(element, classes, depth + 1);
        // One level: arrays of arrays and lists of lists are not carried (yet).
        if (elementType.kind == ValueKind::Unsupported || elementType.kind == ValueKind::Array ||
            elementType.kind == ValueKind::List) {
            break;
        }
        out.kind = code == MONO_TYPE_SZARRAY ? ValueKind::Array : ValueKind::List;
        out.element.push_back(std::move(elementType));
        break;
    }
    default:
        break;
    }
    return out;
}

} // namespace scripthost::mono
