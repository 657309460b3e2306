using System;
using System.Runtime.InteropServices;

namespace UEngine
{
    /// <summary>
    /// A rotation laid out exactly like glm::quat with GLM 0.9.9's default storage order:
    /// x, y, z, then w.
    /// </summary>
    [Serializable, StructLayout(LayoutKind.Sequential)]
    public struct Quaternion : IEquatable<Quaternion>
    {
        /// <summary>The X component of the vector part (sin(angle/2) × axis.x).</summary>
        public float x;
        /// <summary>The Y component of the vector part.</summary>
        public float y;
        /// <summary>The Z component of the vector part.</summary>
        public float z;
        /// <summary>The scalar part (cos(angle/2)).</summary>
        public float w;

        /// <summary>A quaternion of the given components (not normalised here).</summary>
        public Quaternion(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }

        /// <summary>No rotation: (0, 0, 0, 1).</summary>
        public static Quaternion identity { get { return new Quaternion(0f, 0f, 0f, 1f); } }

        /// <summary>A rotation of <paramref name="degrees"/> about <paramref name="axis"/> (normalised here).</summary>
        public static Quaternion AngleAxis(float degrees, Vector3 axis)
        {
            Vector3 n = axis.normalized;
            double half = degrees * Math.PI / 360.0;
            float s = (float)Math.Sin(half);
            return new Quaternion(n.x * s, n.y * s, n.z * s, (float)Math.Cos(half));
        }

        /// <summary>This quaternion scaled to length 1, or <see cref="identity"/> when it is (nearly) zero.</summary>
        public Quaternion normalized
        {
            get
            {
                float m = (float)Math.Sqrt(x * x + y * y + z * z + w * w);
                return m > 1e-9f ? new Quaternion(x / m, y / m, z / m, w / m) : identity;
            }
        }

        /// <summary>The inverse rotation of a unit quaternion: (-x, -y, -z, w).</summary>
        public Quaternion conjugate { get { return new Quaternion(-x, -y, -z, w); } }

        /// <summary>Composition: applying the result rotates by b first, then by a.</summary>
        public static Quaternion operator *(Quaternion a, Quaternion b)
        {
            return new Quaternion(
                a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                a.w * b.y + a.y * b.w + a.z * b.x - a.x * b.z,
                a.w * b.z + a.z * b.w + a.x * b.y - a.y * b.x,
                a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
        }

        /// <summary>Rotates a vector (same result as glm's quat * vec3).</summary>
        public static Vector3 operator *(Quaternion q, Vector3 v)
        {
            Vector3 u = new Vector3(q.x, q.y, q.z);
            Vector3 uv = Vector3.Cross(u, v);
            Vector3 uuv = Vector3.Cross(u, uv);
            return v + ((uv * q.w) + uuv) * 2f;
        }

        /// <summary>Exact equality of every component (no tolerance; q and -q are the same rotation but not equal).</summary>
        public static bool operator ==(Quaternion a, Quaternion b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
        /// <summary>Some component differs.</summary>
        public static bool operator !=(Quaternion a, Quaternion b) { return !(a == b); }

        /// <summary>Exact equality of every component.</summary>
        public bool Equals(Quaternion other) { return this == other; }
        /// <summary>True for a Quaternion equal to this one.</summary>
        public override bool Equals(object obj) { return obj is Quaternion && Equals((Quaternion)obj); }
        /// <summary>A hash of the components.</summary>
        public override int GetHashCode() { return x.GetHashCode() ^ (y.GetHashCode() << 2) ^ (z.GetHashCode() >> 2) ^ (w.GetHashCode() >> 1); }
        /// <summary>"(x, y, z, w)" with four decimals.</summary>
        public override string ToString() { return string.Format("({0:F4}, {1:F4}, {2:F4}, {3:F4})", x, y, z, w); }
    }
}
