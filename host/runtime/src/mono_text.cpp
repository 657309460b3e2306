#include "runtime/mono_text.hpp"

#include <memory>
#include <mono/metadata/appdomain.h>
#include <mono/metadata/class.h>
#include <mono/utils/mono-error.h>
#include <vector>

namespace scripthost::mono {

std::string toUtf8(MonoString* string) {
    if (string == nullptr) {
        return {};
    }
    MonoError error;
    std::unique_ptr<char, decltype(&mono_free)> utf8(mono_string_to_utf8_checked(string, &error),
                                                     &mono_free);
    if (!mono_error_ok(&error)) {
        mono_error_cleanup(&error);
        return {};
    }
    return utf8 ? std::string(utf8.get()) : std::string();
}

Result<MonoString*> newString(MonoDomain* domain, std::string_view utf8) {
    std::vector<mono_unichar2> utf16;
    utf16.reserve(utf8.size());
    const auto* p = reinterpret_cast<const unsigned char*>(utf8.data());
    const auto* end = p + utf8.size();
    while (p < end) {
        char32_t cp;
        int extra;
        if (*p < 0x80) {
            cp = *p;
            extra = 0;
        } else if ((*p & 0xE0) == 0xC0) {
            cp = *p & 0x1F;
            extra = 1;
        } else if ((*p & 0xF0) == 0xE0) {
            cp = *p & 0x0F;
            extra = 2;
        } else if ((*p & 0xF8) == 0xF0) {
            cp = *p & 0x07;
            extra = 3;
        } else
            return fail("invalid UTF-8 at byte " +
                        std::to_string(p - reinterpret_cast<const unsigned char*>(utf8.data())));
        const auto* start = p++;
        for (int i = 0; i < extra; ++i, ++p) {
            if (p >= end || (*p & 0xC0) != 0x80) {
                return fail(
                    "invalid UTF-8 at byte " +
                    std::to_string(start - reinterpret_cast<const unsigned char*>(utf8.data())));
            }
            cp = (cp << 6) | (*p & 0x3F);
        }
        static constexpr char32_t minimum[] = {0, 0x80, 0x800, 0x10000};
        if (cp < minimum[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return fail(
                "invalid UTF-8 at byte " +
                std::to_string(start - reinterpret_cast<const unsigned char*>(utf8.data())));
        }
        if (cp >= 0x10000) {
            cp -= 0x10000;
            utf16.push_back(static_cast<mono_unichar2>(0xD800 + (cp >> 10)));
            utf16.push_back(static_cast<mono_unichar2>(0xDC00 + (cp & 0x3FF)));
        } else {
            utf16.push_back(static_cast<mono_unichar2>(cp));
        }
    }
    MonoString* string =
        mono_string_new_utf16(domain, utf16.data(), static_cast<int32_t>(utf16.size()));
    if (string == nullptr) {
        return fail("out of memory creating a managed string");
    }
    return string;
}

std::string stringProperty(MonoObject* object, const char* property) {
    MonoClass* klass = mono_object_get_class(object);
    MonoProperty* prop = mono_class_get_property_from_name(klass, property);
    if (prop == nullptr) {
        return {};
    }
    MonoObject* exc = nullptr;
    MonoObject* value = mono_property_get_value(prop, object, nullptr, &exc);
    // A property of another type comes back boxed (an int, an enum) or as another object:
    // reading it as a string would read its bytes as one.
    if (exc != nullptr || value == nullptr ||
        mono_object_get_class(value) != mono_get_string_class()) {
        return {};
    }
    return toUtf8(reinterpret_cast<MonoString*>(value));
}

std::string fullClassName(MonoClass* klass) {
    std::string name = mono_class_get_name(klass);
    if (MonoClass* outer = mono_class_get_nesting_type(klass))
        return fullClassName(outer) + "+" + name;
    const std::string ns = mono_class_get_namespace(klass);
    return ns.empty() ? name : ns + "." + name;
}

} // namespace scripthost::mono
