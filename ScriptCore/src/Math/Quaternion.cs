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
        public float x;
        public float y;
        public float z;
        public float w;

        public Quaternion(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }

        public static Quaternion identity { get { return new Quaternion(0f, 0f, 0f, 1f); } }

        /// <summary>A rotation of <paramref name="degrees"/> about <paramref name="axis"/> (normalised here).</summary>
        public static Quaternion AngleAxis(float degrees, Vector3 axis)
        {
            Vector3 n = axis.normalized;
            double half = degrees * Math.PI / 360.0;
            float s = (float)Math.Sin(half);
            return new Quaternion(n.x * s, n.y * s, n.z * s, (float)Math.Cos(half));
        }

        public Quaternion normalized
        {
            get
            {
                float m = (float)Math.Sqrt(x * x + y * y + z * z + w * w);
                return m > 1e-9f ? new Quaternion(x / m, y / m, z / m, w / m) : identity;
            }
        }

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

        public static bool operator ==(Quaternion a, Quaternion b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
        public static bool operator !=(Quaternion a, Quaternion b) { return !(a == b); }

        public bool Equals(Quaternion other) { return this == other; }
        public override bool Equals(object obj) { return obj is Quaternion && Equals((Quaternion)obj); }
        public override int GetHashCode() { return x.GetHashCode() ^ (y.GetHashCode() << 2) ^ (z.GetHashCode() >> 2) ^ (w.GetHashCode() >> 1); }
        public override string ToString() { return string.Format("({0:F4}, {1:F4}, {2:F4}, {3:F4})", x, y, z, w); }
    }
}
