using System;
using UEngine;

namespace Tests
{
    // Throws from Update on every frame (or only while failing is set).
    public class Thrower : UMonoScriptComponent
    {
        [SerializeField] bool failing = true;
        [SerializeField] int calls;

        public override void Update(float deltaTime)
        {
            calls++;
            if (failing)
                Explode(); // THROW-LINE
        }

        // Mono 6.8 reports a `throw` statement's frame at the line after it, so the test
        // checks the caller's frame, whose line is exact.
        void Explode()
        {
            throw new InvalidOperationException("thrower failed on purpose");
        }
    }

    // Throws from its constructor.
    public class ThrowsInConstructor : UMonoScriptComponent
    {
        public ThrowsInConstructor() { throw new Exception("constructor refuses"); }
    }

    // Throws from Initialize once; Update still runs afterwards.
    public class ThrowsInInitialize : UMonoScriptComponent
    {
        [SerializeField] int updates;
        public override void Initialize() { throw new Exception("initialize refuses"); }
        public override void Update(float deltaTime) { updates++; }
    }

    public class NeedsArgument : UMonoScriptComponent
    {
        public NeedsArgument(int x) { }
    }
}
