using System.Collections.Generic;

namespace UEngine.Internal
{
    /// <summary>The dispatcher's JIT warm-up (<see cref="ScriptRuntime"/>, operation 9).</summary>
    static class DispatcherWarmUp
    {
        /// <summary>
        /// Exercises, on throw-away collections, the generic code Attach and the phases
        /// use, so the JIT compiles it while the host prepares a generation rather than in
        /// the frame that swaps it in. Touches no script and no dispatcher state. In four parts
        /// (0 to 3: the host's ManagedDispatcher::kWarmParts) of a few milliseconds of JIT
        /// each, so that the host can stop between any two of them (its warm-up slices).
        /// </summary>
        internal static void Warm(int part)
        {
            switch (part)
            {
                case 0:
                {
                    var byId = new Dictionary<ulong, object>(4);
                    UMonoScriptComponent script;
                    byId[1] = null;
                    ScriptRuntime.TryGet(byId, 1, out script);
                    break;
                }
                case 1:
                {
                    var byId = new Dictionary<ulong, object>(4);
                    byId.Add(1, null);
                    byId.Remove(1);
                    object found;
                    byId.TryGetValue(1, out found);
                    break;
                }
                case 2:
                {
                    var list = new List<UMonoScriptComponent>(2);
                    list.Add(null);
                    list.Remove(null);
                    list.Capacity = 8;
                    break;
                }
                default:
                {
                    var list = new List<UMonoScriptComponent>(2);
                    list.RemoveAll(s => s == null);
                    foreach (UMonoScriptComponent s in list) { }
                    break;
                }
            }
        }
    }
}
