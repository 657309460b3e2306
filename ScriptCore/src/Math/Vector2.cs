using System;
using System.Runtime.InteropServices;

namespace UEngine
{
    /// <summary>A 2D vector laid out exactly like glm::vec2 (two floats).</summary>
    [Serializable, StructLayout(LayoutKind.Sequential)]
    public struct Vector2 : IEquatable<Vector2>
    {
        public float x;
        public float y;

        public Vector2(float x, float y) { this.x = x; this.y = y; }

        public static Vector2 zero { get { return new Vector2(0f, 0f); } }
        public static Vector2 one { get { return new Vector2(1f, 1f); } }

        public float sqrMagnitude { get { return x * x + y * y; } }
        public float magnitude { get { return (float)Math.Sqrt(sqrMagnitude); } }
        public Vector2 normalized
        {
            get { float m = magnitude; return m > 1e-6f ? this / m : zero; }
        }

        public static float Dot(Vector2 a, Vector2 b) { return a.x * b.x + a.y * b.y; }

        public static Vector2 operator +(Vector2 a, Vector2 b) { return new Vector2(a.x + b.x, a.y + b.y); }
        public static Vector2 operator -(Vector2 a, Vector2 b) { return new Vector2(a.x - b.x, a.y - b.y); }
        public static Vector2 operator -(Vector2 a) { return new Vector2(-a.x, -a.y); }
        public static Vector2 operator *(Vector2 a, float s) { return new Vector2(a.x * s, a.y * s); }
        public static Vector2 operator *(float s, Vector2 a) { return a * s; }
        public static Vector2 operator /(Vector2 a, float s) { return new Vector2(a.x / s, a.y / s); }
        public static bool operator ==(Vector2 a, Vector2 b) { return a.x == b.x && a.y == b.y; }
        public static bool operator !=(Vector2 a, Vector2 b) { return !(a == b); }

        public bool Equals(Vector2 other) { return this == other; }
        public override bool Equals(object obj) { return obj is Vector2 && Equals((Vector2)obj); }
        public override int GetHashCode() { return x.GetHashCode() ^ (y.GetHashCode() << 2); }
        public override string ToString() { return string.Format("({0:F3}, {1:F3})", x, y); }
    }
}
