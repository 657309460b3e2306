#pragma once
// UnityMessage: the message methods of Unity's MonoBehaviour the host calls, and the ones it
// never calls (it has no physics, rendering callbacks, GUI or application focus).

#include <array>
#include <cstdint>
#include <string_view>

namespace scripthost {

/// A Unity message method a script class may declare (no `override`, any visibility, no
/// parameters). The values are bits of the managed dispatcher's message flags
/// (ScriptCore/src/Internal/ScriptRuntime.cs, Messages) and must not change.
enum class UnityMessage : std::uint32_t {
    Awake = 1U << 2,
    Start = 1U << 3, ///< may return IEnumerator: then it runs as a coroutine
    Update = 1U << 4,
    FixedUpdate = 1U << 5,
    LateUpdate = 1U << 6,
    OnEnable = 1U << 7,
    OnDisable = 1U << 8,
    OnDestroy = 1U << 9,
};

/// The messages the host calls, with their method names, in the order Unity calls them.
inline constexpr std::array<std::pair<UnityMessage, std::string_view>, 8> kUnityMessages{{
    {UnityMessage::Awake, "Awake"},
    {UnityMessage::OnEnable, "OnEnable"},
    {UnityMessage::Start, "Start"},
    {UnityMessage::FixedUpdate, "FixedUpdate"},
    {UnityMessage::Update, "Update"},
    {UnityMessage::LateUpdate, "LateUpdate"},
    {UnityMessage::OnDisable, "OnDisable"},
    {UnityMessage::OnDestroy, "OnDestroy"},
}};

/// Unity messages this host never calls: a script that declares one is told so at load
/// instead of waiting for a call that never comes.
inline constexpr std::string_view kUncalledUnityMessages[] = {
    "OnTriggerEnter",      "OnTriggerStay",         "OnTriggerExit",
    "OnTriggerEnter2D",    "OnTriggerStay2D",       "OnTriggerExit2D",
    "OnCollisionEnter",    "OnCollisionStay",       "OnCollisionExit",
    "OnCollisionEnter2D",  "OnCollisionStay2D",     "OnCollisionExit2D",
    "OnControllerColliderHit", "OnJointBreak",      "OnJointBreak2D",
    "OnParticleCollision", "OnParticleTrigger",     "OnMouseDown",
    "OnMouseUp",           "OnMouseUpAsButton",     "OnMouseEnter",
    "OnMouseExit",         "OnMouseOver",           "OnMouseDrag",
    "OnBecameVisible",     "OnBecameInvisible",     "OnWillRenderObject",
    "OnPreCull",           "OnPreRender",           "OnPostRender",
    "OnRenderObject",      "OnRenderImage",         "OnGUI",
    "OnDrawGizmos",        "OnDrawGizmosSelected",  "OnValidate",
    "Reset",               "OnApplicationFocus",    "OnApplicationPause",
    "OnApplicationQuit",   "OnAnimatorMove",        "OnAnimatorIK",
    "OnTransformParentChanged", "OnTransformChildrenChanged",
};

[[nodiscard]] constexpr std::uint32_t bitOf(UnityMessage message) noexcept {
    return static_cast<std::uint32_t>(message);
}

} // namespace scripthost
