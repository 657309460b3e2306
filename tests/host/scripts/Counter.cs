using UEngine;

namespace Tests
{
    // Counts its messages so the host can check the dispatcher from C++.
    public class Counter : UMonoScriptComponent
    {
        [SerializeField] int updates;
        [SerializeField] int fixedUpdates;
        [SerializeField] float elapsed;
        [SerializeField] bool initialized;
        [SerializeField] int step = 1;
        [SerializeField] double lastTime;
        public int publicUpdates; // readable from other scripts


        public override void Initialize() { initialized = true; }
        public override void Update(float deltaTime)
        {
            updates += step;
            publicUpdates = updates;
            elapsed += deltaTime;
            lastTime = Time.time;
        }
        public override void FixedUpdate(float fixedDeltaTime) { fixedUpdates++; }
    }

    // Overrides nothing: must not be scheduled for Update or FixedUpdate.
    public class Idle : UMonoScriptComponent
    {
        [SerializeField] int untouched = 7;
    }

    // Overrides only FixedUpdate.
    public class FixedOnly : UMonoScriptComponent
    {
        [SerializeField] int ticks;
        public override void FixedUpdate(float fixedDeltaTime) { ticks++; }
    }

    // Not a script: a plain class in the scripts assembly.
    public class NotAScript
    {
        public int value;
    }

    public abstract class AbstractScript : UMonoScriptComponent { }
}
