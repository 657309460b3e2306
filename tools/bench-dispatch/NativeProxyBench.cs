// Compiled by bench_dispatch at run time, with BenchScripts.cs and the C# proxy the host
// generates for Bench.NativeProbe (a native script class the benchmark registers): what a
// call through a native script's proxy costs against the same call on a C# object.
using System.Runtime.CompilerServices;

namespace Bench
{
    /// The C# twin of Bench.NativeProbe: the same field and method, in managed code.
    public sealed class ManagedProbe
    {
        float m_Speed = 1f;

        public float speed
        {
            [MethodImpl(MethodImplOptions.NoInlining)] get { return m_Speed; }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        public float Add(float x) { return m_Speed += x; }
    }

    public static class ProxyLoops
    {
        /// n calls of the native method through the proxy (an internal call into C++).
        public static float CallNative(NativeProbe probe, int n)
        {
            float sum = 0f;
            for (int i = 0; i < n; i++) sum += probe.Add(0f);
            return sum;
        }

        /// n reads of the native field through the proxy's property.
        public static float GetNative(NativeProbe probe, int n)
        {
            float sum = 0f;
            for (int i = 0; i < n; i++) sum += probe.speed;
            return sum;
        }

        /// n calls of the same method on a C# object (not inlined): the baseline.
        public static float CallManaged(int n)
        {
            var probe = new ManagedProbe();
            float sum = 0f;
            for (int i = 0; i < n; i++) sum += probe.Add(0f);
            return sum;
        }

        /// n reads of the same property on a C# object (not inlined).
        public static float GetManaged(int n)
        {
            var probe = new ManagedProbe();
            float sum = 0f;
            for (int i = 0; i < n; i++) sum += probe.speed;
            return sum;
        }
    }
}
