#include "runtime/managed_exception.hpp"

#include "runtime/mono_text.hpp"

#include <mono/metadata/appdomain.h>
#include <mono/metadata/class.h>
#include <mono/metadata/object.h>

namespace scripthost::mono {

ManagedException describeException(MonoObject* exception) {
    ManagedException out;
    if (exception == nullptr) {
        out.type = "<null>";
        return out;
    }
    MonoClass* klass = mono_object_get_class(exception);
    out.type = fullClassName(klass);

    MonoObject* nested = nullptr;
    if (MonoProperty* messageProperty =
            mono_class_get_property_from_name(mono_get_exception_class(), "Message")) {
        MonoObject* message = mono_property_get_value(messageProperty, exception, nullptr, &nested);
        if (nested == nullptr && message != nullptr) {
            out.message = toUtf8(reinterpret_cast<MonoString*>(message));
        }
    }
    nested = nullptr;
    MonoString* text = mono_object_to_string(exception, &nested);
    if (nested == nullptr && text != nullptr) {
        out.text = toUtf8(text);
    } else {
        out.text = out.type + ": " + out.message + " (ToString() threw)";
    }
    return out;
}

std::string thrownText(MonoObject* exception) {
    ManagedException described = describeException(exception);
    if (described.type == "System.Threading.ThreadAbortException") {
        return "stopped by the watchdog: it ran past its time budget; where it was: " +
               described.text;
    }
    return described.text;
}

} // namespace scripthost::mono
