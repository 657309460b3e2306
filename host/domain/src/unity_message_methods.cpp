#include "unity_message_methods.hpp"

#include "host/model/unity_message.hpp"
#include "runtime/mono_text.hpp"

#include <algorithm>
#include <iterator>
#include <mono/metadata/attrdefs.h>
#include <mono/metadata/loader.h>

namespace scripthost::mono {

namespace {

bool isInstanceMethod(MonoMethod* method) {
    return (mono_method_get_flags(method, nullptr) & MONO_METHOD_ATTR_STATIC) == 0;
}

// The classes from `klass` up to (not including) `scriptBase`, most derived first.
std::vector<MonoClass*> chainBelow(MonoClass* klass, MonoClass* scriptBase) {
    std::vector<MonoClass*> chain;
    for (MonoClass* k = klass; k != nullptr && k != scriptBase; k = mono_class_get_parent(k))
        chain.push_back(k);
    return chain;
}

} // namespace

std::uint32_t declaredUnityMessages(MonoClass* klass, MonoClass* scriptBase) {
    std::uint32_t bits = 0;
    for (MonoClass* k : chainBelow(klass, scriptBase)) {
        for (const auto& [message, name] : kUnityMessages) {
            const std::string method(name);
            MonoMethod* found = mono_class_get_method_from_name(k, method.c_str(), 0);
            if (found != nullptr && isInstanceMethod(found))
                bits |= bitOf(message);
        }
    }
    return bits;
}

std::vector<std::string> uncalledUnityMessages(MonoClass* klass, MonoClass* scriptBase) {
    std::vector<std::string> named;
    auto chain = chainBelow(klass, scriptBase);
    std::reverse(chain.begin(), chain.end()); // base classes first
    for (MonoClass* k : chain) {
        void* iter = nullptr;
        while (MonoMethod* method = mono_class_get_methods(k, &iter)) {
            const std::string_view name = mono_method_get_name(method);
            if (!isInstanceMethod(method) ||
                std::find(std::begin(kUncalledUnityMessages), std::end(kUncalledUnityMessages),
                          name) == std::end(kUncalledUnityMessages))
                continue;
            named.push_back(fullClassName(k) + "." + std::string(name));
        }
    }
    return named;
}

} // namespace scripthost::mono
