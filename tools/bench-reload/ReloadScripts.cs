using UEngine;

namespace BenchReload
{
    /// The script every bench entity carries: three [SerializeField] values and one
    /// reference, which a reload must carry over. ReloadScripts.dll is compiled twice,
    /// with GenerationA.cs and with GenerationB.cs, so that every reload swaps in
    /// different code (a step of 1 vs 2), as an edit would.
    public class Carrier : UMonoScriptComponent
    {
        // Read and written by the host only (the reload carries them): no C# use.
#pragma warning disable 169
        [SerializeField] float speed;
        [SerializeField] int count;
        [SerializeField] string label;
        [SerializeField] UEntity target;
#pragma warning restore 169

        public override void Update(float deltaTime)
        {
            // A per-frame mutation the bench checks: a reload must carry `count` exactly,
            // and the first frame after it must add the new generation's step.
            count += Generation.Step;
        }
    }
}
