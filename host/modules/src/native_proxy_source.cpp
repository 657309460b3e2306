#include "host/modules/native_proxy_source.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fmt/format.h>

namespace scripthost {

namespace {

using game::NativeFieldType;

bool isIdentifier(std::string_view s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
        return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

// C# keywords a member could collide with (the generator does not escape with @: a native
// name that needs it would surprise C# users anyway).
constexpr std::array<std::string_view, 77> kKeywords{
    "abstract", "as",         "base",    "bool",     "break",     "byte",     "case",
    "catch",    "char",       "checked", "class",    "const",     "continue", "decimal",
    "default",  "delegate",   "do",      "double",   "else",      "enum",     "event",
    "explicit", "extern",     "false",   "finally",  "fixed",     "float",    "for",
    "foreach",  "goto",       "if",      "implicit", "in",        "int",      "interface",
    "internal", "is",         "lock",    "long",     "namespace", "new",      "null",
    "object",   "operator",   "out",     "override", "params",    "private",  "protected",
    "public",   "readonly",   "ref",     "return",   "sbyte",     "sealed",   "short",
    "sizeof",   "stackalloc", "static",  "string",   "struct",    "switch",   "this",
    "throw",    "true",       "try",     "typeof",   "uint",      "ulong",    "unchecked",
    "unsafe",   "ushort",     "using",   "virtual",  "void",      "volatile", "while"};

// Members every proxy has already (UObject, UComponent, UNativeScript).
constexpr std::array<std::string_view, 10> kTaken{"nativeId",   "isAlive",   "Destroy",  "ToString",
                                                  "gameObject", "transform", "EntityOf", "IdOf",
                                                  "GetType",    "Equals"};

Result<void> checkMemberName(std::string_view cls, std::string_view what, std::string_view name) {
    if (!isIdentifier(name))
        return fail(fmt::format("{}: {} \"{}\" is not a C# identifier", cls, what, name));
    if (std::find(kKeywords.begin(), kKeywords.end(), name) != kKeywords.end())
        return fail(fmt::format("{}: {} \"{}\" is a C# keyword", cls, what, name));
    if (std::find(kTaken.begin(), kTaken.end(), name) != kTaken.end() ||
        name.starts_with("Internal_"))
        return fail(fmt::format("{}: {} \"{}\" is taken by a member every native script proxy "
                                "has",
                                cls, what, name));
    return {};
}

const char* csharpType(NativeFieldType type) {
    switch (type) {
    case NativeFieldType::Bool:
        return "bool";
    case NativeFieldType::Int32:
        return "int";
    case NativeFieldType::Int64:
        return "long";
    case NativeFieldType::Float:
        return "float";
    case NativeFieldType::Double:
        return "double";
    case NativeFieldType::String:
        return "string";
    case NativeFieldType::Vector2:
        return "global::UEngine.Vector2";
    case NativeFieldType::Vector3:
        return "global::UEngine.Vector3";
    case NativeFieldType::Vector4:
        return "global::UEngine.Vector4";
    case NativeFieldType::Quaternion:
        return "global::UEngine.Quaternion";
    case NativeFieldType::Entity:
        return "global::UEngine.UEntity";
    }
    return "object";
}

// The UNativeScript accessor suffix of a field type ("Float" → Internal_GetFloat).
const char* accessor(NativeFieldType type) {
    switch (type) {
    case NativeFieldType::Bool:
        return "Bool";
    case NativeFieldType::Int32:
        return "Int";
    case NativeFieldType::Int64:
        return "Long";
    case NativeFieldType::Float:
        return "Float";
    case NativeFieldType::Double:
        return "Double";
    case NativeFieldType::String:
        return "String";
    case NativeFieldType::Vector2:
        return "Vector2";
    case NativeFieldType::Vector3:
        return "Vector3";
    case NativeFieldType::Vector4:
        return "Vector4";
    case NativeFieldType::Quaternion:
        return "Quaternion";
    case NativeFieldType::Entity:
        return "Entity";
    }
    return "";
}

bool isStruct(NativeFieldType type) {
    return type == NativeFieldType::Vector2 || type == NativeFieldType::Vector3 ||
           type == NativeFieldType::Vector4 || type == NativeFieldType::Quaternion;
}

std::string xmlText(std::string_view text) {
    std::string out;
    for (char c : text) {
        switch (c) {
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '&':
            out += "&amp;";
            break;
        case '\n':
            out += ' ';
            break;
        default:
            out += c;
        }
    }
    return out;
}

void appendProperty(std::string& out, const game::NativeFieldInfo& f, std::size_t index) {
    const char* type = csharpType(f.type);
    const char* acc = accessor(f.type);
    out += fmt::format("        /// <summary>The native field <c>{}</c> ({}).</summary>\n", f.name,
                       xmlText(type));
    out += fmt::format("        public {} {}\n        {{\n", type, f.name);
    if (isStruct(f.type)) {
        out += fmt::format("            get {{ {} v; Internal_Get{}(nativeId, {}, \"{}\", out v); "
                           "return v; }}\n",
                           type, acc, index, f.name);
        out +=
            fmt::format("            set {{ Internal_Set{}(nativeId, {}, \"{}\", ref value); }}\n",
                        acc, index, f.name);
    } else if (f.type == NativeFieldType::Entity) {
        out += fmt::format("            get {{ return EntityOf(Internal_GetEntity(nativeId, {}, "
                           "\"{}\")); }}\n",
                           index, f.name);
        out += fmt::format("            set {{ Internal_SetEntity(nativeId, {}, \"{}\", "
                           "IdOf(value)); }}\n",
                           index, f.name);
    } else {
        out += fmt::format("            get {{ return Internal_Get{}(nativeId, {}, \"{}\"); }}\n",
                           acc, index, f.name);
        out += fmt::format("            set {{ Internal_Set{}(nativeId, {}, \"{}\", value); }}\n",
                           acc, index, f.name);
    }
    out += "        }\n";
}

void appendMethod(std::string& out, const game::NativeMethodInfo& m, bool overrides) {
    const char* result = m.result ? csharpType(*m.result) : "void";
    std::string parameters, arguments;
    for (std::size_t i = 0; i < m.parameters.size(); ++i) {
        parameters += fmt::format(", {} a{}", csharpType(m.parameters[i]), i);
        arguments += fmt::format(", a{}", i);
    }
    const std::string declared = parameters.empty() ? "" : parameters.substr(2);
    out += fmt::format("        /// <summary>The native method <c>{}</c>.</summary>\n", m.name);
    out += fmt::format(
        "        public {}{} {}({})\n        {{\n            {}Internal_{}(nativeId{});\n"
        "        }}\n",
        overrides ? "override " : "", result, m.name, declared, m.result ? "return " : "", m.name,
        arguments);
    out += "        [MethodImpl(MethodImplOptions.InternalCall)]\n";
    out += fmt::format("        static extern {} Internal_{}(ulong self{});\n", result, m.name,
                       parameters);
}

} // namespace

Result<void> checkNativeClassName(std::string_view name) {
    if (name.empty())
        return fail("a native script class needs a name");
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = name.find('.', start);
        const std::string_view part = name.substr(start, dot - start);
        if (!isIdentifier(part) ||
            std::find(kKeywords.begin(), kKeywords.end(), part) != kKeywords.end())
            return fail(fmt::format("native script class \"{}\": \"{}\" is not a C# identifier "
                                    "(the name is the C# proxy's full name, e.g. "
                                    "\"Demo.NativeSpinner\")",
                                    name, part));
        if (dot == std::string_view::npos)
            return {};
        start = dot + 1;
    }
}

Result<void> checkNativeClassMembers(const game::NativeScriptClassInfo& cls) {
    std::vector<std::string_view> seen;
    const std::string_view shortName = std::string_view(cls.name).substr(cls.name.rfind('.') + 1);
    auto check = [&](std::string_view what, std::string_view name) -> Result<void> {
        if (auto ok = checkMemberName(cls.name, what, name); !ok)
            return ok;
        if (name == shortName)
            return fail(
                fmt::format("{}: {} \"{}\" has the class's own name", cls.name, what, name));
        if (std::find(seen.begin(), seen.end(), name) != seen.end())
            return fail(fmt::format("{}: two members are named \"{}\"", cls.name, name));
        seen.push_back(name);
        return {};
    };
    for (const game::NativeFieldInfo& f : cls.fields) {
        if (auto ok = check("field", f.name); !ok)
            return ok;
    }
    for (const game::NativeMethodInfo& m : cls.methods) {
        if (auto ok = check("method", m.name); !ok)
            return ok;
    }
    if (!cls.baseClass.empty()) {
        if (auto ok = checkNativeClassName(cls.baseClass); !ok)
            return fail(fmt::format("{}: its C# base class: {}", cls.name, ok.error().message));
    }
    return {};
}

std::string nativeProxySource(const std::vector<const game::NativeScriptClassInfo*>& classes,
                              std::string_view origin) {
    std::string out = fmt::format(
        "// Generated by scripthost from {}: the C# proxies of its native script classes.\n"
        "// Do not edit: the host writes this file again whenever the module is loaded.\n"
        "using System.Runtime.CompilerServices;\n\n",
        origin);
    for (const game::NativeScriptClassInfo* cls : classes) {
        const std::size_t dot = cls->name.rfind('.');
        const std::string ns = dot == std::string::npos ? "" : cls->name.substr(0, dot);
        const std::string name = dot == std::string::npos ? cls->name : cls->name.substr(dot + 1);
        std::string body;
        body += fmt::format("    /// <summary>{}</summary>\n",
                            cls->description.empty()
                                ? fmt::format("The native script class {} (C++, from the game "
                                              "module).",
                                              cls->name)
                                : xmlText(cls->description));
        body += fmt::format("    public sealed class {} : global::{}\n    {{\n", name,
                            cls->baseClass.empty() ? "UEngine.UNativeScript" : cls->baseClass);
        body += fmt::format("        {}() {{ }}\n", name);
        for (std::size_t i = 0; i < cls->fields.size(); ++i) {
            body += "\n";
            appendProperty(body, cls->fields[i], i);
        }
        for (const game::NativeMethodInfo& m : cls->methods) {
            body += "\n";
            appendMethod(body, m, !cls->baseClass.empty());
        }
        body += "    }\n";
        if (ns.empty()) {
            // Top-level: drop one level of indentation.
            std::string flat;
            std::size_t start = 0;
            while (start < body.size()) {
                std::size_t end = body.find('\n', start);
                std::string_view line(body.data() + start, end - start);
                flat += std::string(line.starts_with("    ") ? line.substr(4) : line) + "\n";
                start = end + 1;
            }
            out += flat + "\n";
        } else {
            out += fmt::format("namespace {}\n{{\n{}}}\n\n", ns, body);
        }
    }
    return out;
}

} // namespace scripthost
