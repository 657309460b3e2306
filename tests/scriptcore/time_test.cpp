// UEngine.Time (ScriptCore/src/Time.cs) as Unity scripts use it: frameCount is an int (Unity's
// type: `int f = Time.frameCount;` compiles), and the unscaled clocks are the game's (this host
// never scales time). Real mcs build, real ScriptHost, frames of a known length.
#include "../host/support/mono_test_support.hpp"

using namespace scripthost;
using namespace scripthost::testing;

namespace {

const std::string kClock = R"(using UEngine;
public class Clock : UMonoScriptComponent {
  [SerializeField] public int lastFrame;
  [SerializeField] public float unscaledDelta;
  [SerializeField] public float unscaledTime;
  [SerializeField] public bool sameAsScaled = true;
  [SerializeField] public bool playing;
  void Update() {
    int frame = Time.frameCount;
    lastFrame = frame;
    unscaledDelta = Time.unscaledDeltaTime;
    unscaledTime = Time.unscaledTime;
    sameAsScaled &= Time.unscaledDeltaTime == Time.deltaTime && Time.unscaledTime == Time.time;
    playing = Application.isPlaying;
  }
}
)";

} // namespace

TEST_CASE("Time: frameCount is an int counting frames, and unscaledDeltaTime and unscaledTime are "
          "the frame's delta and the game time") {
    TempDir dir("time");
    auto host = makeHostFrom(compileScripts(dir, "Clock.dll", {{"Clock.cs", kClock}}));
    const ObjectId clock = spawnScript(*host, "Clock");
    host->tick(0.05);
    host->tick(0.05);
    host->tick(0.125);
    CHECK(fieldOf<std::int64_t>(*host, clock, "lastFrame") == 3);
    CHECK(fieldOf<float>(*host, clock, "unscaledDelta") == doctest::Approx(0.125));
    CHECK(fieldOf<float>(*host, clock, "unscaledTime") == doctest::Approx(0.225));
    CHECK(fieldOf<bool>(*host, clock, "sameAsScaled"));
    CHECK(fieldOf<bool>(*host, clock, "playing"));
}
