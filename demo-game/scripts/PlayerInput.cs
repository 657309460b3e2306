using UEngine;

namespace Demo
{
    /// Drives the camera from the "MoveForward" and "Turn" input actions.
    public class PlayerInput : UMonoScriptComponent
    {
        [SerializeField("Move speed")] float moveSpeed = 4f;
        [SerializeField("Turn speed")] float turnSpeed = 120f;

        UCameraComponent camera;

        public override void Initialize()
        {
            camera = gameObject.GetComponent<UCameraComponent>();
            if (camera == null)
                Debug.LogWarning("PlayerInput needs a camera on " + gameObject.name);
        }

        public override void Update(float deltaTime)
        {
            if (camera == null) return;
            float forward = UInputSystem.GetActionState("MoveForward");
            float turn = UInputSystem.GetActionState("Turn");
            camera.transform.Move(camera.transform.forward * (forward * moveSpeed * deltaTime));
            camera.transform.Rotate(Vector3.up, turn * turnSpeed * deltaTime); // + turns right
        }
    }
}
