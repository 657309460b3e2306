#include "csharp_writer.hpp"

#include <fmt/format.h>

namespace scripthost::torture {

std::string moodSource() {
    std::string text = "namespace Torture\n{\n    public enum Mood { ";
    bool first = true;
    for (const MoodMember& m : kMoodMembers) {
        text += fmt::format("{}{} = {}", first ? "" : ", ", m.name, m.value);
        first = false;
    }
    return text + " }\n}\n";
}

std::string classSource(const ClassSource& source) {
    // 414/169: fields only the host reads (the compiler would warn about each).
    std::string text =
        "#pragma warning disable 414, 169\nusing System.Collections;\nusing UEngine;\n\n"
        "namespace Torture\n{\n";
    text += fmt::format("    public class {} : UMonoScriptComponent\n    {{\n", source.name);
    text += "        [SerializeField] int marker;\n";
    // The coroutine's fields: the version of its code it runs, and its own loop count (a
    // hoisted local: a reload that resumes it must not start it again from 0).
    text += "        [SerializeField] int pulse;\n";
    text += "        [SerializeField] int pulses;\n";
    text += "        int ticks; // not serialised: restarts with each generation\n";
    for (const FieldDecl& f : source.fields) {
        std::string attributes = "SerializeField";
        for (const std::string& former : f.formerNames)
            attributes += fmt::format(", FormerlySerializedAs(\"{}\")", former);
        const std::string init = csharpLiteral(f.kind, f.initial);
        text += fmt::format("        [{}] {} {}{};\n", attributes, csharpType(f.kind), f.name,
                            init == "null" ? "" : " = " + init);
    }
    if (source.syntaxError)
        text += "        int broken = ; // torture: a syntax error\n";
    if (source.throwingCtor) {
        text += fmt::format("        public {}()\n        {{\n            throw new "
                            "System.InvalidOperationException(\"torture: constructor throws\");\n"
                            "        }}\n",
                            source.name);
    }
    text += "        public override void Initialize()\n        {\n"
            "            StartCoroutine(Pulse());\n        }\n";
    text += fmt::format("        System.Collections.IEnumerator Pulse()\n        {{\n"
                        "            for (int n = 1; ; n++)\n            {{\n"
                        "                pulse = {};\n                pulses = n;\n"
                        "                yield return null;\n            }}\n        }}\n",
                        source.coroutine);
    text += fmt::format("        public override void Update(float deltaTime)\n        {{\n"
                        "            ticks++;\n            marker = {};\n        }}\n",
                        source.marker);
    text += "    }\n}\n";
    return text;
}

} // namespace scripthost::torture
