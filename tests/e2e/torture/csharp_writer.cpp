#include "csharp_writer.hpp"

#include <fmt/format.h>

namespace scripthost::torture {

namespace {

std::string attributesOf(const FieldDecl& f, const char* first) {
    std::string attributes = first;
    for (const std::string& former : f.formerNames)
        attributes +=
            fmt::format("{}FormerlySerializedAs(\"{}\")", attributes.empty() ? "" : ", ", former);
    return attributes.empty() ? "" : "[" + attributes + "] ";
}

} // namespace

std::string moodSource(const SharedTypes& types) {
    std::string text = "namespace Torture\n{\n    public enum Mood { ";
    bool first = true;
    for (const MoodMember& m : types.mood) {
        text += fmt::format("{}{} = {}", first ? "" : ", ", m.name, m.value);
        first = false;
    }
    return text + " }\n}\n";
}

std::string loadoutSource(const SharedTypes& types) {
    std::string text = "using UEngine;\n\nnamespace Torture\n{\n    [System.Serializable]\n"
                       "    public class Loadout\n    {\n";
    for (const FieldDecl& m : types.loadout) {
        text += fmt::format("        {}public {} {} = {};\n", attributesOf(m, ""),
                            csharpType(m.kind), m.name, csharpLiteral(m.kind, m.initial));
    }
    return text + "    }\n}\n";
}

std::string beatSource() {
    return "namespace Torture\n{\n    public interface IBeat\n    {\n"
           "        event System.Action<int> Beat;\n    }\n}\n";
}

std::string classSource(const ClassSource& source) {
    // 414/169: fields only the host reads (the compiler would warn about each).
    std::string text = "#pragma warning disable 414, 169\nusing System.Collections;\n"
                       "using System.Collections.Generic;\nusing UEngine;\n\n"
                       "namespace Torture\n{\n";
    text += fmt::format("    public class {} : UMonoScriptComponent, IBeat\n    {{\n", source.name);
    text += "        [SerializeField] int marker;\n";
    // The coroutine's fields: the version of its code it runs, and its own loop count (a
    // hoisted local: a reload that resumes it must not start it again from 0).
    text += "        [SerializeField] int pulse;\n";
    text += "        [SerializeField] int pulses;\n";
    // The event: `subscribe` (set through the control socket) makes Update add a handler of
    // this script to `peer`'s event (1: the method OnBeat<N>, 2: a lambda) or remove one (-1);
    // `listeners` counts the handlers on this script's own event each frame.
    text += "        [SerializeField] UMonoScriptComponent peer;\n";
    text += "        [SerializeField] int subscribe;\n";
    text += "        [SerializeField] int listeners;\n";
    text += "        [SerializeField] int heard;\n";
    // A [PreserveStatic] static, copied into a field every frame: it never goes back.
    text += "        [SerializeField] int statics;\n";
    text += "        [PreserveStatic] static int frames;\n";
    text += "        int ticks; // not serialised: restarts with each generation\n";
    text += "        public event System.Action<int> Beat;\n";
    for (const FieldDecl& f : source.fields) {
        const std::string init = csharpLiteral(f.kind, f.initial);
        // Public fields are saved by Unity's rule; the others carry [SerializeField].
        text += fmt::format("        {}{}{} {}{};\n",
                            attributesOf(f, f.isPublic ? "" : "SerializeField"),
                            f.isPublic ? "public " : "", csharpType(f.kind), f.name,
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
    text += fmt::format("        void OnBeat{}(int n)\n        {{\n            heard += n;\n"
                        "        }}\n",
                        source.handler);
    text += fmt::format(
        "        public override void Update(float deltaTime)\n        {{\n"
        "            ticks++;\n            marker = {0};\n            statics = ++frames;\n"
        "            if (subscribe != 0)\n            {{\n"
        "                var publisher = peer as IBeat;\n"
        "                if (publisher != null && subscribe == 1) publisher.Beat += OnBeat{1};\n"
        "                if (publisher != null && subscribe == 2) publisher.Beat += n => heard += "
        "n * {2};\n"
        "                if (publisher != null && subscribe == -1) publisher.Beat -= OnBeat{1};\n"
        "                subscribe = 0;\n            }}\n"
        "            listeners = Beat == null ? 0 : Beat.GetInvocationList().Length;\n"
        "            if (Beat != null) Beat(1);\n        }}\n",
        source.marker, source.handler, source.lambda);
    text += "    }\n}\n";
    return text;
}

} // namespace scripthost::torture
