// UEngine.UTransform's Unity members (ScriptCore/src/UTransform.cs): points and directions
// between the transform's space and the world's, Translate in either space, LookAt, Rotate by
// Euler angles, eulerAngles, and the way back to the entity and its components. GLM computes what
// each should give (a rotation, then a scale, then a translation); the C# runs in a real
// ScriptHost from a real mcs build, on the probe script's own entity.
#include "csharp_probe.hpp"

#include <glm/gtc/quaternion.hpp>

using namespace scripthost;
using namespace scripthost::testing;

namespace {

// The pose every case starts from: at (1, 2, 3), a quarter turn about +Y, scaled (2, 1, 0.5).
const glm::vec3 kPosition{1, 2, 3};
const glm::quat kTurn = glm::angleAxis(glm::radians(90.0F), glm::vec3(0, 1, 0));
const glm::vec3 kScale{2, 1, 0.5F};

const std::string kPose = R"(
  void Pose() {
    transform.position = new Vector3(1, 2, 3);
    transform.rotation = Quaternion.AngleAxis(90f, Vector3.up);
    transform.scaling = new Vector3(2, 1, 0.5f);
  }
  Vector3 Point(Vector3 p) { Pose(); return transform.TransformPoint(p); }
  Vector3 Back(Vector3 p) { Pose(); return transform.InverseTransformPoint(transform.TransformPoint(p)); }
  Vector3 Inverse(Vector3 p) { Pose(); return transform.InverseTransformPoint(p); }
  Vector3 Direction(Vector3 d) { Pose(); return transform.TransformDirection(d); }
  Vector3 InverseDirection(Vector3 d) { Pose(); return transform.InverseTransformDirection(d); }
  Vector3 TranslatedSelf(Vector3 d) { Pose(); transform.Translate(d); return transform.position; }
  Vector3 TranslatedWorld(Vector3 d) { Pose(); transform.Translate(d.x, d.y, d.z, Space.World); return transform.position; }
  Vector3 LookedAt(Vector3 target) { Pose(); transform.LookAt(target); return transform.forward; }
  Vector3 LookedAtTransform() {
    Pose();
    var other = new UEntity("Target");
    other.transform.position = new Vector3(1, 2, 10);
    transform.LookAt(other.transform);
    return transform.forward;
  }
  Quaternion Rotated(Vector3 eulers) { transform.rotation = Quaternion.identity; transform.Rotate(eulers); return transform.rotation; }
  Quaternion RotatedTwice() { transform.rotation = Quaternion.identity; transform.Rotate(0, 90, 0); transform.Rotate(90, 0, 0); return transform.rotation; }
  Vector3 Euler(Vector3 e) { transform.eulerAngles = e; return transform.eulerAngles; }
  bool OwnEntity() { return transform.gameObject == gameObject && ReferenceEquals(transform.transform, transform); }
  bool OwnComponent() { return transform.GetComponent<UMonoScriptComponent>() == this && transform.GetComponent(GetType()) == this; }
  bool Named() { gameObject.name = "Probed"; return transform.name == "Probed"; }
  bool Renamed() { transform.name = "Renamed"; return gameObject.name == "Renamed"; }
)";

std::string cs(glm::vec3 v) {
    return "new Vector3(" + std::to_string(v.x) + "f, " + std::to_string(v.y) + "f, " +
           std::to_string(v.z) + "f)";
}

glm::vec3 transformPoint(glm::vec3 p) {
    return kPosition + kTurn * (kScale * p);
}

} // namespace

TEST_CASE("UTransform: points and directions go between the transform's space and the world's as "
          "GLM's scale, rotation and translation do") {
    const glm::vec3 p{1, -2, 4};
    checkCases("UTransform",
               {
                   {"Point(" + cs(p) + ")", transformPoint(p)},
                   {"Back(" + cs(p) + ")", p},
                   {"Inverse(" + cs(transformPoint(p)) + ")", p},
                   {"Direction(" + cs(p) + ")", kTurn * p},
                   {"InverseDirection(" + cs(kTurn * p) + ")", p},
                   // Unity's default is Space.Self: along the transform's own axes.
                   {"TranslatedSelf(Vector3.forward)", kPosition + kTurn * glm::vec3(0, 0, 1)},
                   {"TranslatedWorld(Vector3.forward)", kPosition + glm::vec3(0, 0, 1)},
               },
               kPose);
}

TEST_CASE("UTransform: LookAt turns the forward axis to the target, Rotate turns about the "
          "transform's own axes, eulerAngles round-trips") {
    const glm::quat yaw = glm::angleAxis(glm::radians(90.0F), glm::vec3(0, 1, 0));
    const glm::quat pitch = glm::angleAxis(glm::radians(90.0F), glm::vec3(1, 0, 0));
    checkCases("UTransformTurn",
               {
                   {"LookedAt(new Vector3(4, 2, 3))", glm::vec3(1, 0, 0)},
                   {"LookedAt(new Vector3(1, 2, -5))", glm::vec3(0, 0, -1)},
                   {"LookedAtTransform()", glm::vec3(0, 0, 1)},
                   {"Rotated(new Vector3(0, 90, 0))", rotation(yaw)},
                   // Self space: the second turn is about the already turned X axis.
                   {"RotatedTwice()", rotation(yaw * pitch)},
                   {"Euler(new Vector3(30, 45, 0))", glm::vec3(30, 45, 0), 1e-4},
               },
               kPose);
}

TEST_CASE("UTransform: gameObject, transform, name and GetComponent lead back to the entity and "
          "its components") {
    checkCases("UTransformOwner",
               {
                   {"OwnEntity()", 1},
                   {"OwnComponent()", 1},
                   {"Named()", 1},
                   {"Renamed()", 1},
               },
               kPose);
}
