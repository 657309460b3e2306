#include "soak_scripts.hpp"

#include <fmt/format.h>

namespace soak {

std::string keeperSource(int version, KeeperShape shape) {
    const char* ctor = shape == KeeperShape::ThrowingCtor
                           ? "  public SoakKeeper() { throw new System.InvalidOperationException("
                             "\"soak: a throwing constructor\"); }\n"
                           : "";
    const char* end = shape == KeeperShape::SyntaxError ? "" : ";";
    return fmt::format("using UEngine;\n"
                       "public class SoakKeeper : UMonoScriptComponent {{\n"
                       "  [SerializeField] int a;\n"
                       "  [SerializeField] int b;\n"
                       "  [SerializeField] int c;\n"
                       "  [SerializeField] string note = \"\";\n"
                       "  [SerializeField] int live;\n"
                       "{}"
                       "  public override void Update(float dt) {{ live = {}{} }}\n"
                       "}}\n",
                       ctor, version, end);
}

std::string churnSource() {
    return "using UEngine;\n"
           "using System;\n"
           "using System.Collections.Generic;\n"
           "using System.Threading;\n"
           "public class SoakChurn : UMonoScriptComponent {\n"
           "  [SerializeField] int frames;\n"
           "  bool started;\n"
           "  static Timer s_Timer;\n"
           "  class Bomb { ~Bomb() { throw new InvalidOperationException(\"soak: a throwing "
           "finalizer\"); } }\n"
           "  public override void Update(float dt) {\n"
           "    frames++;\n"
           "    if (!started) {\n"
           "      started = true;\n"
           "      new Thread(() => {\n"
           "        var keep = new List<byte[]>();\n"
           "        while (true) { keep.Add(new byte[4096]); if (keep.Count > 256) keep.Clear(); "
           "Thread.Sleep(1); }\n"
           "      }) { IsBackground = true, Name = \"soak allocator\" }.Start();\n"
           "      s_Timer = new Timer(_ => { var x = new int[64]; x[0] = 1; }, null, 0, 10);\n"
           "    }\n"
           "    ThreadPool.QueueUserWorkItem(_ => {\n"
           "      var until = DateTime.UtcNow.AddMilliseconds(1);\n"
           "      while (DateTime.UtcNow < until) { }\n"
           "    });\n"
           "    if (frames % 30 == 0) new Bomb();\n"
           "  }\n"
           "}\n";
}

} // namespace soak
