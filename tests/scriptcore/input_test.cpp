// UEngine.Input (ScriptCore/src/Input.cs) and KeyCode: Unity's keys, buttons and axes read from
// the host's input actions, a key being the action "key:<KeyCode name>". The C# runs in a real
// ScriptHost from a real mcs build; the test sets the actions between frames as the terminal,
// an input replay or `scriptctl input` would, and checks what each frame's script saw against
// Unity's documented behaviour (Down and Up for one frame, a keyboard axis moving at 3 units a
// second, snapping to 0 when it turns).
#include "../host/support/mono_test_support.hpp"

#include <doctest/doctest.h>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

const std::string kProbe = R"(
using System;
using UEngine;
public class InputProbe : UMonoScriptComponent {
  [SerializeField] public string keys = "";
  [SerializeField] public float[] axis = new float[0];
  [SerializeField] public float[] raw = new float[0];
  [SerializeField] public string refused = "";
  public override void Update(float dt) {
    keys += (keys.Length == 0 ? "" : " ") + Time.frameCount + ":"
      + (Input.GetKey(KeyCode.Space) ? "K" : "-") + (Input.GetKeyDown(KeyCode.Space) ? "D" : "-")
      + (Input.GetKeyUp(KeyCode.Space) ? "U" : "-") + (Input.GetButton("Jump") ? "J" : "-")
      + (Input.GetButtonDown("Jump") ? "j" : "-") + (Input.GetKeyDown("space") ? "s" : "-");
    var a = new System.Collections.Generic.List<float>(axis);
    a.Add(Input.GetAxis("Horizontal"));
    a.Add(Input.GetAxis("Horizontal")); // a second call in the same frame: the same value
    axis = a.ToArray();
    var r = new System.Collections.Generic.List<float>(raw);
    r.Add(Input.GetAxisRaw("Horizontal"));
    raw = r.ToArray();
    if (refused.Length == 0) {
      try { Input.GetKey("no such key"); refused = "none"; }
      catch (ArgumentException e) { refused = e.Message; }
    }
  }
}
)";

struct InputHost {
    TempDir dir{"input"};
    std::unique_ptr<ScriptHost> host =
        makeHostFrom(compileScripts(dir, "Input.dll", {{"InputProbe.cs", kProbe}}));
    ObjectId probe = spawnScript(*host, "InputProbe");
    void frame() { host->tick(0.1); }
    std::vector<float> floats(const std::string& field) {
        std::vector<float> out;
        auto got = host->getField(probe, field);
        REQUIRE_MESSAGE(got, (got ? "" : got.error().message));
        REQUIRE_MESSAGE(std::holds_alternative<ValueList>(*got), describe(*got));
        for (const Value& v : std::get<ValueList>(*got)) {
            REQUIRE_MESSAGE(std::holds_alternative<float>(v), describe(v));
            out.push_back(std::get<float>(v));
        }
        return out;
    }
};

} // namespace

TEST_CASE("Input: GetKeyDown and GetKeyUp are true for one frame, GetKey while held, and Jump is "
          "Space until something sets a Jump action") {
    InputHost t;
    t.frame();
    t.host->input().set("key:Space", 1);
    t.frame();
    t.frame();
    t.host->input().set("key:Space", 0);
    t.frame();
    t.frame();
    t.host->input().set("Jump", 1); // a module's binding or a replay: the action wins
    t.frame();
    CHECK(fieldOf<std::string>(*t.host, t.probe, "keys") ==
          "1:------ 2:KD-Jjs 3:K--J-- 4:--U--- 5:------ 6:---Jj-");
    const std::string refused = fieldOf<std::string>(*t.host, t.probe, "refused");
    CHECK(refused.find("Input Key named: no such key is unknown") != std::string::npos);
}

TEST_CASE("Input: Horizontal is D or RightArrow minus A or LeftArrow, GetAxis moves toward it at 3 "
          "units a second and snaps to 0 when it turns, and a Horizontal action wins") {
    InputHost t;
    t.host->input().set("key:D", 1);
    for (int i = 0; i < 4; ++i)
        t.frame(); // 0.3, 0.6, 0.9, 1.0
    t.host->input().set("key:D", 0);
    t.frame(); // released: back toward 0 at 3 a second
    t.host->input().set("key:LeftArrow", 1);
    t.frame(); // turned: snaps to 0, then -0.3
    t.host->input().set("key:RightArrow", 1);
    t.frame(); // both sides held: raw 0
    t.host->input().set("Horizontal", -0.5f);
    t.frame();
    const std::vector<float> raw = t.floats("raw");
    REQUIRE(raw.size() == 8);
    CHECK(raw == std::vector<float>{1, 1, 1, 1, 0, -1, 0, -0.5f});
    const std::vector<float> axis = t.floats("axis");
    REQUIRE(axis.size() == 16);
    const std::vector<float> expected{0.3f, 0.6f, 0.9f, 1.0f, 0.7f, -0.3f, 0.0f, -0.3f};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("frame " << i + 1);
        CHECK(axis[2 * i] == doctest::Approx(expected[i]).epsilon(1e-4));
        CHECK(axis[2 * i + 1] == axis[2 * i]);
    }
}
