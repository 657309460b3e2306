using System;
using System.Runtime.InteropServices;

namespace UEngine
{
    /// <summary>A 4D vector laid out exactly like glm::vec4 (four floats).</summary>
    [Serializable, StructLayout(LayoutKind.Sequential)]
    public struct Vector4 : IEquatable<Vector4>
    {
        /// <summary>The X component.</summary>
        public float x;
        /// <summary>The Y component.</summary>
        public float y;
        /// <summary>The Z component.</summary>
        public float z;
        /// <summary>The W component.</summary>
        public float w;

        /// <summary>A vector of the given components.</summary>
        public Vector4(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }

        /// <summary>(0, 0, 0, 0).</summary>
        public static Vector4 zero { get { return new Vector4(0f, 0f, 0f, 0f); } }
        /// <summary>(1, 1, 1, 1).</summary>
        public static Vector4 one { get { return new Vector4(1f, 1f, 1f, 1f); } }

        /// <summary>The squared length: cheaper than <see cref="magnitude"/> for comparisons.</summary>
        public float sqrMagnitude { get { return x * x + y * y + z * z + w * w; } }
        /// <summary>The length.</summary>
        public float magnitude { get { return (float)Math.Sqrt(sqrMagnitude); } }

        /// <summary>The dot product of <paramref name="a"/> and <paramref name="b"/>.</summary>
        public static float Dot(Vector4 a, Vector4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

        /// <summary>Component-wise sum.</summary>
        public static Vector4 operator +(Vector4 a, Vector4 b) { return new Vector4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
        /// <summary>Component-wise difference.</summary>
        public static Vector4 operator -(Vector4 a, Vector4 b) { return new Vector4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w); }
        /// <summary>The opposite vector.</summary>
        public static Vector4 operator -(Vector4 a) { return new Vector4(-a.x, -a.y, -a.z, -a.w); }
        /// <summary>Scales every component by <paramref name="s"/>.</summary>
        public static Vector4 operator *(Vector4 a, float s) { return new Vector4(a.x * s, a.y * s, a.z * s, a.w * s); }
        /// <summary>Scales every component by <paramref name="s"/>.</summary>
        public static Vector4 operator *(float s, Vector4 a) { return a * s; }
        /// <summary>Divides every component by <paramref name="s"/>.</summary>
        public static Vector4 operator /(Vector4 a, float s) { return new Vector4(a.x / s, a.y / s, a.z / s, a.w / s); }
        /// <summary>Exact equality of every component (no tolerance).</summary>
        public static bool operator ==(Vector4 a, Vector4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
        /// <summary>Some component differs.</summary>
        public static bool operator !=(Vector4 a, Vector4 b) { return !(a == b); }

        /// <summary>Exact equality of every component.</summary>
        public bool Equals(Vector4 other) { return this == other; }
        /// <summary>True for a Vector4 equal to this one.</summary>
        public override bool Equals(object obj) { return obj is Vector4 && Equals((Vector4)obj); }
        /// <summary>A hash of the components.</summary>
        public override int GetHashCode() { return x.GetHashCode() ^ (y.GetHashCode() << 2) ^ (z.GetHashCode() >> 2) ^ (w.GetHashCode() >> 1); }
        /// <summary>"(x, y, z, w)" with three decimals.</summary>
        public override string ToString() { return string.Format("({0:F3}, {1:F3}, {2:F3}, {3:F3})", x, y, z, w); }
    }
}
