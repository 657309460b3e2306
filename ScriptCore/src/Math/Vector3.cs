using System;
using System.Runtime.InteropServices;

namespace UEngine
{
    /// <summary>
    /// A 3D vector laid out exactly like glm::vec3 (three floats), in Unity's basis: +X right,
    /// +Y up, +Z forward (docs/SDK.md, "Transform").
    /// </summary>
    [Serializable, StructLayout(LayoutKind.Sequential)]
    public struct Vector3 : IEquatable<Vector3>
    {
        /// <summary>The X component (right).</summary>
        public float x;
        /// <summary>The Y component (up).</summary>
        public float y;
        /// <summary>The Z component (forward).</summary>
        public float z;

        /// <summary>A vector of the given components.</summary>
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }

        /// <summary>(0, 0, 0).</summary>
        public static Vector3 zero { get { return new Vector3(0f, 0f, 0f); } }
        /// <summary>(1, 1, 1).</summary>
        public static Vector3 one { get { return new Vector3(1f, 1f, 1f); } }
        /// <summary>(0, 1, 0): +Y, up.</summary>
        public static Vector3 up { get { return new Vector3(0f, 1f, 0f); } }
        /// <summary>(0, -1, 0).</summary>
        public static Vector3 down { get { return new Vector3(0f, -1f, 0f); } }
        /// <summary>(1, 0, 0): +X, right.</summary>
        public static Vector3 right { get { return new Vector3(1f, 0f, 0f); } }
        /// <summary>(-1, 0, 0).</summary>
        public static Vector3 left { get { return new Vector3(-1f, 0f, 0f); } }
        /// <summary>(0, 0, 1): +Z, the direction an unrotated entity faces, as in Unity.</summary>
        public static Vector3 forward { get { return new Vector3(0f, 0f, 1f); } }
        /// <summary>(0, 0, -1).</summary>
        public static Vector3 back { get { return new Vector3(0f, 0f, -1f); } }

        /// <summary>The squared length: cheaper than <see cref="magnitude"/> for comparisons.</summary>
        public float sqrMagnitude { get { return x * x + y * y + z * z; } }
        /// <summary>The length.</summary>
        public float magnitude { get { return (float)Math.Sqrt(sqrMagnitude); } }
        /// <summary>This vector scaled to length 1, or <see cref="zero"/> when it is (nearly) zero.</summary>
        public Vector3 normalized
        {
            get { float m = magnitude; return m > 1e-6f ? this / m : zero; }
        }

        /// <summary>The dot product of <paramref name="a"/> and <paramref name="b"/>.</summary>
        public static float Dot(Vector3 a, Vector3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
        /// <summary>
        /// The cross product <paramref name="a"/> × <paramref name="b"/>, by the usual formula: in
        /// Unity's basis Cross(up, forward) is right, and Cross(right, up) is forward.
        /// </summary>
        public static Vector3 Cross(Vector3 a, Vector3 b)
        {
            return new Vector3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
        }
        /// <summary>The distance between the points <paramref name="a"/> and <paramref name="b"/>.</summary>
        public static float Distance(Vector3 a, Vector3 b) { return (a - b).magnitude; }
        /// <summary>The point a fraction <paramref name="t"/> of the way from <paramref name="a"/> to <paramref name="b"/> (not clamped).</summary>
        public static Vector3 Lerp(Vector3 a, Vector3 b, float t) { return a + (b - a) * t; }

        /// <summary>Component-wise sum.</summary>
        public static Vector3 operator +(Vector3 a, Vector3 b) { return new Vector3(a.x + b.x, a.y + b.y, a.z + b.z); }
        /// <summary>Component-wise difference.</summary>
        public static Vector3 operator -(Vector3 a, Vector3 b) { return new Vector3(a.x - b.x, a.y - b.y, a.z - b.z); }
        /// <summary>The opposite vector.</summary>
        public static Vector3 operator -(Vector3 a) { return new Vector3(-a.x, -a.y, -a.z); }
        /// <summary>Scales every component by <paramref name="s"/>.</summary>
        public static Vector3 operator *(Vector3 a, float s) { return new Vector3(a.x * s, a.y * s, a.z * s); }
        /// <summary>Scales every component by <paramref name="s"/>.</summary>
        public static Vector3 operator *(float s, Vector3 a) { return a * s; }
        /// <summary>Divides every component by <paramref name="s"/>.</summary>
        public static Vector3 operator /(Vector3 a, float s) { return new Vector3(a.x / s, a.y / s, a.z / s); }
        /// <summary>Exact equality of every component (no tolerance).</summary>
        public static bool operator ==(Vector3 a, Vector3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
        /// <summary>Some component differs.</summary>
        public static bool operator !=(Vector3 a, Vector3 b) { return !(a == b); }

        /// <summary>Exact equality of every component.</summary>
        public bool Equals(Vector3 other) { return this == other; }
        /// <summary>True for a Vector3 equal to this one.</summary>
        public override bool Equals(object obj) { return obj is Vector3 && Equals((Vector3)obj); }
        /// <summary>A hash of the components.</summary>
        public override int GetHashCode() { return x.GetHashCode() ^ (y.GetHashCode() << 2) ^ (z.GetHashCode() >> 2); }
        /// <summary>"(x, y, z)" with three decimals.</summary>
        public override string ToString() { return string.Format("({0:F3}, {1:F3}, {2:F3})", x, y, z); }
    }
}
