// Unity's message methods (Awake, Start, Update(), FixedUpdate(), LateUpdate(), OnEnable,
// OnDisable, OnDestroy), declared without `override`: which ones the host finds in a class's
// metadata (host/domain/src/unity_message_methods.cpp), and that the dispatcher calls them when
// and in the order Unity does. Real mcs build, real runtime.
#include "../support/mono_test_support.hpp"
#include "host/model/unity_message.hpp"

#include <string>

using namespace scripthost;
using namespace scripthost::testing;
using nlohmann::json;

namespace {

// Every script appends "label.Message@frame" to Journal.text.
constexpr const char* kJournal = R"(
using System; using System.Collections; using UEngine;
public class Journal : UMonoScriptComponent {
  [PreserveStatic] public static string text = "";
  public static void Add(string entry) { text += (text.Length == 0 ? "" : " ") + entry + "@" + Time.frameCount; }
}
)";

struct MessageHost {
    TempDir dir{"unity-messages"};
    AssemblyFile scripts;
    std::unique_ptr<ScriptHost> host;

    explicit MessageHost(const std::string& classes)
        : scripts(compileScripts(dir, "Messages.dll",
                                 {{"Journal.cs", kJournal}, {"Classes.cs", classes}})) {
        host = makeHostFrom(scripts);
    }
    std::string journal() {
        auto text = host->domain()->getStatic("Journal", "text");
        REQUIRE_MESSAGE(text, (text ? "" : text.error().message));
        return std::get<std::string>(*text);
    }
    // One frame of exactly one fixed step.
    void frame() { host->tick(1.0 / 50.0); }
};

const std::string kEveryMessage = R"(
using System; using System.Collections; using UEngine;
public class Every : UMonoScriptComponent {
  [SerializeField] public string label = "e";
  void Awake() { Journal.Add(label + ".Awake"); }
  private void OnEnable() { Journal.Add(label + ".OnEnable"); }
  void Start() { Journal.Add(label + ".Start"); }
  protected void FixedUpdate() { Journal.Add(label + ".Fixed"); }
  public void Update() { Journal.Add(label + ".Update"); }
  void LateUpdate() { Journal.Add(label + ".Late"); }
  void OnDisable() { Journal.Add(label + ".OnDisable"); }
  void OnDestroy() { Journal.Add(label + ".OnDestroy"); }
}
)";

} // namespace

TEST_CASE("Unity messages: the host finds the ones a class declares, any visibility, in a base "
          "class too, and names the ones it never calls") {
    MessageHost t(R"(
using System; using System.Collections; using UEngine;
public class Base : UMonoScriptComponent {
  private void Awake() { }
  void OnTriggerEnter(object other) { }
}
public class Derived : Base {
  IEnumerator Start() { yield break; }
  protected void LateUpdate() { }
  public void Update(int notAMessage) { }
  static void OnEnable() { }
  void OnGUI() { }
}
public class Plain : UMonoScriptComponent {
  public override void Update(float dt) { }
}
namespace Game { public class Outer { public class Inner : UMonoScriptComponent {
  void OnMouseDown() { }
} } }
)");
    const ScriptClassInfo* derived = t.host->domain()->findScriptClass("Derived");
    REQUIRE(derived != nullptr);
    CHECK(derived->unityMessages == (bitOf(UnityMessage::Awake) | bitOf(UnityMessage::Start) |
                                     bitOf(UnityMessage::LateUpdate)));
    CHECK_FALSE(derived->overridesUpdate);
    CHECK(derived->uncalledMessages ==
          std::vector<std::string>{"Base.OnTriggerEnter", "Derived.OnGUI"});
    const ScriptClassInfo* plain = t.host->domain()->findScriptClass("Plain");
    REQUIRE(plain != nullptr);
    CHECK(plain->unityMessages == 0);
    CHECK(plain->overridesUpdate);
    CHECK(plain->uncalledMessages.empty());
    const ScriptClassInfo* inner = t.host->domain()->findScriptClass("Game.Outer+Inner");
    REQUIRE(inner != nullptr);
    CHECK(inner->uncalledMessages == std::vector<std::string>{"Game.Outer+Inner.OnMouseDown"});
}

TEST_CASE("Unity messages: Awake and OnEnable at once, Start before the first FixedUpdate, then "
          "FixedUpdate, Update and LateUpdate each frame, OnDisable and OnDestroy on removal") {
    MessageHost t(kEveryMessage);
    const ObjectId a = spawnScript(*t.host, "Every", {{"label", "a"}});
    CHECK(t.journal() == "a.Awake@0 a.OnEnable@0");
    t.frame();
    CHECK(t.journal() == "a.Awake@0 a.OnEnable@0 a.Start@1 a.Fixed@1 a.Update@1 a.Late@1");
    t.frame();
    CHECK(t.journal() == "a.Awake@0 a.OnEnable@0 a.Start@1 a.Fixed@1 a.Update@1 a.Late@1 "
                         "a.Fixed@2 a.Update@2 a.Late@2");
    REQUIRE(t.host->removeScript(a));
    INFO(t.journal());
    CHECK(t.journal().ends_with("a.Late@2 a.OnDisable@2 a.OnDestroy@2"));
    t.frame();
    CHECK(t.journal().ends_with("a.Late@2 a.OnDisable@2 a.OnDestroy@2"));
}

TEST_CASE("Unity messages: every script's Awake runs before any Start, and a script added by "
          "another's Update starts in the next frame") {
    MessageHost t(kEveryMessage + R"(
public class Adder : UMonoScriptComponent {
  bool added;
  void Update() {
    if (added) return;
    added = true;
    gameObject.AddComponent<Every>().label = "late";
  }
}
)");
    (void)spawnScript(*t.host, "Every", {{"label", "a"}});
    (void)spawnScript(*t.host, "Every", {{"label", "b"}});
    CHECK(t.journal() == "a.Awake@0 a.OnEnable@0 b.Awake@0 b.OnEnable@0");
    t.frame();
    CHECK(t.journal().starts_with(
        "a.Awake@0 a.OnEnable@0 b.Awake@0 b.OnEnable@0 a.Start@1 b.Start@1 a.Fixed@1 b.Fixed@1"));
    (void)spawnScript(*t.host, "Adder");
    t.frame(); // Adder's Update adds "late": its Awake runs inside that Update (label still "e")
    const std::string afterAdd = t.journal();
    INFO(afterAdd);
    CHECK(afterAdd.ends_with("e.Awake@2 e.OnEnable@2 a.Late@2 b.Late@2"));
    t.frame();
    CHECK(t.journal().substr(afterAdd.size()) ==
          " late.Start@3 a.Fixed@3 b.Fixed@3 late.Fixed@3 a.Update@3 b.Update@3 late.Update@3 "
          "a.Late@3 b.Late@3 late.Late@3");
}

TEST_CASE("Unity messages: an IEnumerator Start runs as the script's coroutine") {
    MessageHost t(R"(
using System; using System.Collections; using UEngine;
public class Waits : UMonoScriptComponent {
  IEnumerator Start() {
    Journal.Add("start");
    yield return null;
    Journal.Add("resumed");
    yield return new WaitForSeconds(0.05f);
    Journal.Add("waited");
  }
}
)");
    (void)spawnScript(*t.host, "Waits");
    CHECK(t.journal().empty());
    t.frame();
    CHECK(t.journal() == "start@1");
    t.frame();
    CHECK(t.journal() == "start@1 resumed@2");
    for (int i = 0; i < 4; ++i)
        t.frame();
    CHECK(t.journal() == "start@1 resumed@2 waited@5");
}

TEST_CASE("Unity messages: a message that throws is the script's failure, and the others still "
          "run") {
    MessageHost t(R"(
using System; using System.Collections; using UEngine;
public class Faulty : UMonoScriptComponent {
  void Awake() { throw new InvalidOperationException("awake failed"); }
  void Start() { Journal.Add("start"); }
  void LateUpdate() { throw new InvalidOperationException("late failed"); }
  void Update() { Journal.Add("update"); }
}
)");
    (void)spawnScript(*t.host, "Faulty");
    auto failures = t.host->recentFailures();
    REQUIRE(failures.size() == 1);
    CHECK(failures[0].phase == ScriptPhase::Awake);
    CHECK(failures[0].message == "awake failed");
    t.frame();
    CHECK(t.journal() == "start@1 update@1");
    failures = t.host->recentFailures();
    REQUIRE(failures.size() == 2);
    CHECK(failures[1].phase == ScriptPhase::LateUpdate);
    CHECK(failures[1].className == "Faulty");
}

TEST_CASE("Unity messages: a class with both the override and Unity's Update gets both") {
    MessageHost t(R"(
using System; using System.Collections; using UEngine;
public class Both : UMonoScriptComponent {
  public override void Update(float dt) { Journal.Add("override" + dt.ToString("0.00")); }
  void Update() { Journal.Add("unity"); }
}
)");
    (void)spawnScript(*t.host, "Both");
    t.frame();
    CHECK(t.journal() == "override0.02@1 unity@1");
}

TEST_CASE("Unity messages: a reload calls none of the once-only messages again, and the new code's "
          "per-frame messages run") {
    MessageHost t(kEveryMessage);
    const ObjectId a = spawnScript(*t.host, "Every", {{"label", "a"}});
    t.frame();
    auto edited = compileScripts(t.dir, "Messages2.dll",
                                 {{"Journal.cs", kJournal}, {"Classes.cs", [] {
                                                                 std::string s = kEveryMessage;
                                                                 s.replace(s.find("\".Update\""), 9,
                                                                           "\".Update2\"");
                                                                 return s;
                                                             }()}});
    (void)reloadOk(*t.host, edited);
    const std::string before = t.journal();
    t.frame();
    CHECK(t.journal().substr(before.size()) == " a.Fixed@2 a.Update2@2 a.Late@2");
    CHECK(fieldOf<std::string>(*t.host, a, "label") == "a");
}

namespace {
const std::string kToggle = R"(
using System; using System.Collections; using UEngine;
public class Toggle : UMonoScriptComponent {
  public int updates;
  public int steps;
  void OnEnable() { Journal.Add("on"); }
  void OnDisable() { Journal.Add("off"); }
  IEnumerator Start() { while (true) { steps++; yield return null; } }
  void Update() { updates++; }
  void LateUpdate() { Journal.Add("late"); }
}
public class Switch : UMonoScriptComponent {
  void Update() {
    Toggle toggle = UEntity.Find("ToggleEntity").GetComponent<Toggle>();
    if (Time.frameCount == 2) toggle.enabled = false;
    if (Time.frameCount == 4) toggle.enabled = true;
  }
}
public class Quitter : UMonoScriptComponent {
  public int updates;
  void Start() { enabled = false; }
  void Update() { updates++; }
}
)";
} // namespace

TEST_CASE("Unity messages: enabled = false stops the per-frame messages and calls OnDisable, "
          "enabled = true calls OnEnable, and the coroutines go on") {
    MessageHost t(kToggle);
    const ObjectId toggle = spawnScript(*t.host, "Toggle");
    (void)spawnScript(*t.host, "Switch");
    for (int i = 0; i < 2; ++i)
        t.frame();
    CHECK(t.journal() == "on@0 late@1 off@2");
    CHECK(t.host->world().script(toggle)->disabledByScript);
    CHECK(t.host->world().script(toggle)->enabled); // the host's own flag is untouched
    t.frame();
    CHECK(fieldOf<std::int64_t>(*t.host, toggle, "updates") == 2);
    CHECK(fieldOf<std::int64_t>(*t.host, toggle, "steps") ==
          3);  // the coroutine went on while disabled
    t.frame(); // Switch enables it after Toggle's turn in this frame's Update
    CHECK(t.journal() == "on@0 late@1 off@2 on@4 late@4");
    CHECK(fieldOf<std::int64_t>(*t.host, toggle, "updates") == 2);
    CHECK_FALSE(t.host->world().script(toggle)->disabledByScript);
    t.frame();
    CHECK(fieldOf<std::int64_t>(*t.host, toggle, "updates") == 3);
}

TEST_CASE("Unity messages: a script that set enabled = false stays disabled across a reload") {
    MessageHost t(kToggle);
    const ObjectId quitter = spawnScript(*t.host, "Quitter");
    for (int i = 0; i < 3; ++i)
        t.frame();
    CHECK(fieldOf<std::int64_t>(*t.host, quitter, "updates") == 0);
    REQUIRE(t.host->world().script(quitter)->disabledByScript);
    auto again =
        compileScripts(t.dir, "Messages2.dll",
                       {{"Journal.cs", kJournal}, {"Classes.cs", kToggle + "\n// edited"}});
    (void)reloadOk(*t.host, again);
    for (int i = 0; i < 3; ++i)
        t.frame();
    CHECK(fieldOf<std::int64_t>(*t.host, quitter, "updates") == 0);
    CHECK(t.host->world().script(quitter)->disabledByScript);
    auto count = t.host->domain()->scheduledCount(ScriptPhase::Update);
    REQUIRE(count);
    CHECK(*count == 0);
}

namespace {
const std::string kPool = R"(
using System; using System.Collections; using UEngine;
public class Pooled : UMonoScriptComponent {
  public int updates;
  public int steps;
  public int ticks;
  void OnEnable() { Journal.Add("on"); }
  void OnDisable() { Journal.Add("off"); }
  void Start() { Journal.Add("start"); StartCoroutine(Count()); }
  IEnumerator Count() { while (true) { steps++; yield return null; } }
  void Update() { updates++; }
  void Tick() { ticks++; }
}
public class Switch : UMonoScriptComponent {
  [SerializeField] public bool seenInactive;
  [SerializeField] public bool startedWhileInactive;
  void Update() {
    UEntity pool = UEntity.Find("PooledEntity");
    Pooled pooled = pool.GetComponent<Pooled>();
    if (Time.frameCount == 2) {
      pooled.Invoke("Tick", 0.03f);
      pool.SetActive(false);
      seenInactive = !pool.activeSelf && !pooled.isActiveAndEnabled && pooled.enabled;
    }
    if (Time.frameCount == 3) startedWhileInactive = pooled.StartCoroutine(Empty()) != null;
    if (Time.frameCount == 6) pool.SetActive(true);
  }
  IEnumerator Empty() { yield return null; }
}
)";
} // namespace

TEST_CASE(
    "Unity messages: SetActive(false) calls OnDisable, stops the entity's Update and its "
    "coroutines but not its Invokes, and SetActive(true) calls OnEnable and Update runs again") {
    MessageHost t(kPool);
    const ObjectId pooled = spawnScript(*t.host, "Pooled");
    const ObjectId flip = spawnScript(*t.host, "Switch");
    t.frame();
    t.frame(); // Switch deactivates the pool after Pooled's Update of frame 2
    CHECK(t.journal() == "on@0 start@1 off@2");
    CHECK_FALSE(t.host->world().entity(t.host->world().entityOf(pooled))->active);
    CHECK(fieldOf<bool>(*t.host, flip, "seenInactive"));
    const auto steps = fieldOf<std::int64_t>(*t.host, pooled, "steps");
    for (int i = 0; i < 3; ++i)
        t.frame();
    CHECK(fieldOf<std::int64_t>(*t.host, pooled, "updates") == 2);
    CHECK(fieldOf<std::int64_t>(*t.host, pooled, "steps") == steps); // its coroutine was stopped
    CHECK(fieldOf<std::int64_t>(*t.host, pooled, "ticks") == 1);     // its Invoke went on
    CHECK_FALSE(fieldOf<bool>(*t.host, flip, "startedWhileInactive"));
    auto count = t.host->domain()->scheduledCount(ScriptPhase::Update);
    REQUIRE(count);
    CHECK(*count == 1); // Switch only
    t.frame();          // frame 6: activated after Pooled's turn
    CHECK(t.journal() == "on@0 start@1 off@2 on@6");
    CHECK(t.host->world().entity(t.host->world().entityOf(pooled))->active);
    t.frame();
    CHECK(fieldOf<std::int64_t>(*t.host, pooled, "updates") == 3);
    CHECK(fieldOf<std::int64_t>(*t.host, pooled, "steps") == steps); // not restarted, as in Unity
    CHECK(t.journal() == "on@0 start@1 off@2 on@6");                 // Start ran once
}

TEST_CASE("Unity messages: a script on an inactive entity gets Awake, OnEnable and Start only "
          "once the entity is first activated, and nothing when removed before that") {
    MessageHost t(kEveryMessage + R"(
public class Waker : UMonoScriptComponent {
  void Update() { if (Time.frameCount == 2) UEntity.Find("Sleeper").SetActive(true); }
}
)");
    World& world = t.host->world();
    const ObjectId sleeper = world.createEntity("Sleeper");
    const ObjectId never = world.createEntity("Never");
    world.entity(sleeper)->active = false;
    world.entity(never)->active = false;
    REQUIRE(t.host->addScript(sleeper, SceneScript{"Every", json{{"label", "a"}}}));
    auto b = t.host->addScript(never, SceneScript{"Every", json{{"label", "b"}}});
    REQUIRE(b);
    (void)spawnScript(*t.host, "Waker");
    t.frame();
    CHECK(t.journal().empty());
    CHECK(world.script(*b)->messagesDue ==
          (bitOf(UnityMessage::Awake) | bitOf(UnityMessage::Start)));
    t.frame();
    CHECK(t.journal() == "a.Awake@2 a.OnEnable@2");
    t.frame();
    CHECK(t.journal() == "a.Awake@2 a.OnEnable@2 a.Start@3 a.Fixed@3 a.Update@3 a.Late@3");
    REQUIRE(t.host->removeScript(*b));
    t.frame();
    CHECK(t.journal().find("b.") == std::string::npos);
}

TEST_CASE("Unity messages: a Start or an Awake still owed when a reload lands is called once in "
          "the new code") {
    const std::string classes = kEveryMessage + R"(
public class LateWaker : UMonoScriptComponent {
  void Update() { if (Time.frameCount == 3) UEntity.Find("Sleeper").SetActive(true); }
}
)";
    MessageHost t(classes);
    World& world = t.host->world();
    const ObjectId a = spawnScript(*t.host, "Every", {{"label", "a"}});
    const ObjectId sleeper = world.createEntity("Sleeper");
    world.entity(sleeper)->active = false;
    auto s = t.host->addScript(sleeper, SceneScript{"Every", json{{"label", "s"}}});
    REQUIRE(s);
    CHECK(world.script(a)->messagesDue == bitOf(UnityMessage::Start));
    // The reload lands before the first frame: a has had Awake, not Start; s neither.
    (void)reloadOk(*t.host,
                   compileScripts(t.dir, "Messages2.dll",
                                  {{"Journal.cs", kJournal}, {"Classes.cs", classes + "//"}}));
    t.frame();
    CHECK(t.journal() == "a.Awake@0 a.OnEnable@0 a.Start@1 a.Fixed@1 a.Update@1 a.Late@1");
    CHECK(world.script(a)->messagesDue == 0);
    CHECK(world.script(*s)->messagesDue ==
          (bitOf(UnityMessage::Awake) | bitOf(UnityMessage::Start)));
    (void)reloadOk(*t.host,
                   compileScripts(t.dir, "Messages3.dll",
                                  {{"Journal.cs", kJournal}, {"Classes.cs", classes + "// 3"}}));
    (void)spawnScript(*t.host, "LateWaker");
    t.frame();
    const std::string before = t.journal();
    t.frame(); // frame 3: LateWaker activates Sleeper after a's Update
    CHECK(t.journal().substr(before.size()) ==
          " a.Fixed@3 a.Update@3 s.Awake@3 s.OnEnable@3 a.Late@3");
    t.frame();
    CHECK(t.journal().substr(before.size()).find("s.Start@4 a.Fixed@4 s.Fixed@4") !=
          std::string::npos);
    CHECK(world.script(*s)->messagesDue == 0);
}
