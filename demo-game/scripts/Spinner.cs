using UEngine;

namespace Demo
{
    /// Spins its entity about an axis.
    public class Spinner : UMonoScriptComponent
    {
        [SerializeField] Vector3 axis = Vector3.up;
        [SerializeField("Degrees per second")] float speed = 90f;

        public override void Update(float deltaTime)
        {
            transform.Rotate(axis, speed * deltaTime);
        }
    }
}
