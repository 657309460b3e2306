using System;
using System.Runtime.InteropServices;

namespace UEngine
{
    /// <summary>A 4D vector laid out exactly like glm::vec4 (four floats).</summary>
    [Serializable, StructLayout(LayoutKind.Sequential)]
    public struct Vector4 : IEquatable<Vector4>
    {
        public float x;
        public float y;
        public float z;
        public float w;

        public Vector4(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }

        public static Vector4 zero { get { return new Vector4(0f, 0f, 0f, 0f); } }
        public static Vector4 one { get { return new Vector4(1f, 1f, 1f, 1f); } }

        public float sqrMagnitude { get { return x * x + y * y + z * z + w * w; } }
        public float magnitude { get { return (float)Math.Sqrt(sqrMagnitude); } }

        public static float Dot(Vector4 a, Vector4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

        public static Vector4 operator +(Vector4 a, Vector4 b) { return new Vector4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
        public static Vector4 operator -(Vector4 a, Vector4 b) { return new Vector4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w); }
        public static Vector4 operator -(Vector4 a) { return new Vector4(-a.x, -a.y, -a.z, -a.w); }
        public static Vector4 operator *(Vector4 a, float s) { return new Vector4(a.x * s, a.y * s, a.z * s, a.w * s); }
        public static Vector4 operator *(float s, Vector4 a) { return a * s; }
        public static Vector4 operator /(Vector4 a, float s) { return new Vector4(a.x / s, a.y / s, a.z / s, a.w / s); }
        public static bool operator ==(Vector4 a, Vector4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
        public static bool operator !=(Vector4 a, Vector4 b) { return !(a == b); }

        public bool Equals(Vector4 other) { return this == other; }
        public override bool Equals(object obj) { return obj is Vector4 && Equals((Vector4)obj); }
        public override int GetHashCode() { return x.GetHashCode() ^ (y.GetHashCode() << 2) ^ (z.GetHashCode() >> 2) ^ (w.GetHashCode() >> 1); }
        public override string ToString() { return string.Format("({0:F3}, {1:F3}, {2:F3}, {3:F3})", x, y, z, w); }
    }
}
