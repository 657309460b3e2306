using System;

namespace UEngine
{
    /// <summary>
    /// Random numbers as Unity's <c>Random</c> gives them: one generator for all scripts
    /// (Marsaglia's xorshift128), seeded from the clock at the first draw unless
    /// <see cref="InitState"/> seeds it. Its state is carried across a reload, so a reload
    /// does not restart or reseed the sequence. Main thread only, like the rest of the API.
    /// </summary>
    public static class Random
    {
        /// <summary>The generator's whole state, to save and put back (<see cref="state"/>).</summary>
        [Serializable]
        public struct State
        {
            [SerializeField] internal uint s0;
            [SerializeField] internal uint s1;
            [SerializeField] internal uint s2;
            [SerializeField] internal uint s3;
        }

        // No static constructor and no initialisers: the host copies these fields into the next
        // generation's Random before any script runs there (docs/MONO.md §2, the clock carried).
        internal static uint s_X, s_Y, s_Z, s_W;
        internal static bool s_Seeded;

        /// <summary>Seeds the generator: the same seed gives the same numbers.</summary>
        public static void InitState(int seed)
        {
            // Each word from the last, as Unity (and the Mersenne Twister's seeding) does it.
            s_X = (uint)seed;
            s_Y = s_X * 1812433253u + 1u;
            s_Z = s_Y * 1812433253u + 1u;
            s_W = s_Z * 1812433253u + 1u;
            s_Seeded = true;
        }

        /// <summary>The generator's state now; setting it goes back to a saved one.</summary>
        public static State state
        {
            get { EnsureSeeded(); return new State { s0 = s_X, s1 = s_Y, s2 = s_Z, s3 = s_W }; }
            set
            {
                s_X = value.s0; s_Y = value.s1; s_Z = value.s2; s_W = value.s3;
                s_Seeded = (s_X | s_Y | s_Z | s_W) != 0; // all zeros would only ever give zeros
            }
        }

        /// <summary>A float in [0, 1], both ends included.</summary>
        public static float value { get { return (NextUInt() & 0x7FFFFFu) / 8388607f; } }

        /// <summary>A float in [<paramref name="minInclusive"/>, <paramref name="maxInclusive"/>].</summary>
        public static float Range(float minInclusive, float maxInclusive)
        {
            // value's expression, written out: one call per draw on this hot path.
            return minInclusive + (maxInclusive - minInclusive) * ((NextUInt() & 0x7FFFFFu) / 8388607f);
        }

        /// <summary>
        /// An int in [<paramref name="minInclusive"/>, <paramref name="maxExclusive"/>): Range(0, 6)
        /// is 0 to 5. When max equals min it is min; when max is below min, one in (max, min].
        /// </summary>
        public static int Range(int minInclusive, int maxExclusive)
        {
            if (maxExclusive == minInclusive) return minInclusive;
            if (maxExclusive > minInclusive)
            {
                uint span = (uint)((long)maxExclusive - minInclusive);
                return (int)(minInclusive + NextUInt() % span);
            }
            uint back = (uint)((long)minInclusive - maxExclusive);
            return (int)(minInclusive - NextUInt() % back);
        }

        /// <summary>A point inside the sphere of radius 1 (evenly spread through its volume).</summary>
        public static Vector3 insideUnitSphere
        {
            get
            {
                Vector3 p;
                do { p = new Vector3(Range(-1f, 1f), Range(-1f, 1f), Range(-1f, 1f)); }
                while (p.sqrMagnitude > 1f);
                return p;
            }
        }

        /// <summary>A point on the sphere of radius 1 (evenly spread over its surface).</summary>
        public static Vector3 onUnitSphere
        {
            get
            {
                Vector3 p;
                float length;
                do { p = insideUnitSphere; length = p.magnitude; } while (length < 1e-4f);
                return p / length;
            }
        }

        /// <summary>A point inside the circle of radius 1 (evenly spread through its area).</summary>
        public static Vector2 insideUnitCircle
        {
            get
            {
                Vector2 p;
                do { p = new Vector2(Range(-1f, 1f), Range(-1f, 1f)); } while (p.x * p.x + p.y * p.y > 1f);
                return p;
            }
        }

        /// <summary>A rotation spread evenly over all rotations.</summary>
        public static Quaternion rotation
        {
            get
            {
                // Shoemake's method: three uniform numbers give a uniform unit quaternion.
                float u1 = value, u2 = value * 2f * Mathf.PI, u3 = value * 2f * Mathf.PI;
                float a = Mathf.Sqrt(1f - u1), b = Mathf.Sqrt(u1);
                return new Quaternion(a * Mathf.Sin(u2), a * Mathf.Cos(u2), b * Mathf.Sin(u3), b * Mathf.Cos(u3));
            }
        }

        static void EnsureSeeded()
        {
            if (!s_Seeded)
                InitState(Environment.TickCount ^ (int)DateTime.UtcNow.Ticks);
        }

        static uint NextUInt()
        {
            if (!s_Seeded) EnsureSeeded();
            // Each static read and written once: ScriptCore's statics cost more than a game's
            // (they live per domain, behind Mono's domain-neutral code).
            uint x = s_X, w = s_W;
            uint t = x ^ (x << 11);
            s_X = s_Y; s_Y = s_Z; s_Z = w;
            w = w ^ (w >> 19) ^ t ^ (t >> 8);
            s_W = w;
            return w;
        }
    }
}
