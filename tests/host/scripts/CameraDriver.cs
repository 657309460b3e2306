using UEngine;

namespace Tests
{
    // The seed engine's style: find the camera in Initialize, drive it from input actions.
    public class CameraDriver : UMonoScriptComponent
    {
        [SerializeField] float speed = 2f;
        [SerializeField("Turn speed")] float turnSpeed = 90f;
        [SerializeField] bool foundCamera;
        [SerializeField] bool foundRender;
        [SerializeField] bool sameProxy;
        UCameraComponent camera;

        public override void Initialize()
        {
            camera = gameObject.GetComponent<UCameraComponent>();
            foundCamera = camera != null;
            // A camera is a render component too.
            foundRender = gameObject.GetComponent<URenderComponent>() == camera;
            sameProxy = ReferenceEquals(camera, gameObject.GetComponent<UCameraComponent>());
        }

        public override void Update(float deltaTime)
        {
            float forward = UInputSystem.GetActionState("MoveForward");
            float turn = UInputSystem.GetActionState("Turn");
            camera.transform.Move(camera.transform.forward * (forward * speed * deltaTime));
            camera.transform.Rotate(Vector3.up, turn * turnSpeed * deltaTime);
        }
    }

    // Uses another entity after it was destroyed.
    public class StaleUser : UMonoScriptComponent
    {
        [SerializeField] int updates;
        [SerializeField] string caught = "";
        [SerializeField] bool found;
        UEntity target;

        public override void Initialize() { target = UEntity.Find("Target"); found = target != null; }

        public override void Update(float deltaTime)
        {
            updates++;
            try { target.transform.Move(Vector3.one); }
            catch (MissingReferenceException e) { caught = e.GetType().Name; throw; }
        }
    }

    // Passes bad arguments to the engine API.
    public class BadArguments : UMonoScriptComponent
    {
        [SerializeField] string rotateZeroAxis = "";
        [SerializeField] string nullAction = "";
        [SerializeField] string nullName = "";

        public override void Initialize()
        {
            try { transform.Rotate(Vector3.zero, 10f); } catch (System.Exception e) { rotateZeroAxis = e.GetType().FullName; }
            try { UInputSystem.GetActionState(null); } catch (System.Exception e) { nullAction = e.GetType().FullName; }
            try { gameObject.name = null; } catch (System.Exception e) { nullName = e.GetType().FullName; }
        }
    }
}
