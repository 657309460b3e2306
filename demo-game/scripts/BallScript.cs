using UEngine;

namespace Demo
{
    /// Bounces its entity between two walls at x = ±halfWidth (physics in FixedUpdate).
    public class BallScript : UMonoScriptComponent
    {
        [SerializeField] Vector3 velocity = new Vector3(6f, 0f, 0f);
        [SerializeField("Half width of the court")] float halfWidth = 10f;
        [SerializeField] int bounces;

        public override void FixedUpdate(float fixedDeltaTime)
        {
            Vector3 p = transform.position + velocity * fixedDeltaTime;
            if (p.x > halfWidth || p.x < -halfWidth)
            {
                velocity = new Vector3(-velocity.x, velocity.y, velocity.z);
                p.x = p.x > 0 ? halfWidth : -halfWidth;
                bounces++;
                Arena.Flash(gameObject);
            }
            transform.position = p;
        }
    }
}
