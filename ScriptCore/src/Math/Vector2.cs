using System;
using System.Runtime.InteropServices;

namespace UEngine
{
    /// <summary>A 2D vector laid out exactly like glm::vec2 (two floats).</summary>
    [Serializable, StructLayout(LayoutKind.Sequential)]
    public struct Vector2 : IEquatable<Vector2>
    {
        /// <summary>The X component.</summary>
        public float x;
        /// <summary>The Y component.</summary>
        public float y;

        /// <summary>A vector of the given components.</summary>
        public Vector2(float x, float y) { this.x = x; this.y = y; }

        /// <summary>(0, 0).</summary>
        public static Vector2 zero { get { return new Vector2(0f, 0f); } }
        /// <summary>(1, 1).</summary>
        public static Vector2 one { get { return new Vector2(1f, 1f); } }

        /// <summary>The squared length: cheaper than <see cref="magnitude"/> for comparisons.</summary>
        public float sqrMagnitude { get { return x * x + y * y; } }
        /// <summary>The length.</summary>
        public float magnitude { get { return (float)Math.Sqrt(sqrMagnitude); } }
        /// <summary>This vector scaled to length 1, or <see cref="zero"/> when it is (nearly) zero.</summary>
        public Vector2 normalized
        {
            get { float m = magnitude; return m > 1e-6f ? this / m : zero; }
        }

        /// <summary>The dot product of <paramref name="a"/> and <paramref name="b"/>.</summary>
        public static float Dot(Vector2 a, Vector2 b) { return a.x * b.x + a.y * b.y; }

        /// <summary>Component-wise sum.</summary>
        public static Vector2 operator +(Vector2 a, Vector2 b) { return new Vector2(a.x + b.x, a.y + b.y); }
        /// <summary>Component-wise difference.</summary>
        public static Vector2 operator -(Vector2 a, Vector2 b) { return new Vector2(a.x - b.x, a.y - b.y); }
        /// <summary>The opposite vector.</summary>
        public static Vector2 operator -(Vector2 a) { return new Vector2(-a.x, -a.y); }
        /// <summary>Scales every component by <paramref name="s"/>.</summary>
        public static Vector2 operator *(Vector2 a, float s) { return new Vector2(a.x * s, a.y * s); }
        /// <summary>Scales every component by <paramref name="s"/>.</summary>
        public static Vector2 operator *(float s, Vector2 a) { return a * s; }
        /// <summary>Divides every component by <paramref name="s"/>.</summary>
        public static Vector2 operator /(Vector2 a, float s) { return new Vector2(a.x / s, a.y / s); }
        /// <summary>Exact equality of every component (no tolerance).</summary>
        public static bool operator ==(Vector2 a, Vector2 b) { return a.x == b.x && a.y == b.y; }
        /// <summary>Some component differs.</summary>
        public static bool operator !=(Vector2 a, Vector2 b) { return !(a == b); }

        /// <summary>Exact equality of every component.</summary>
        public bool Equals(Vector2 other) { return this == other; }
        /// <summary>True for a Vector2 equal to this one.</summary>
        public override bool Equals(object obj) { return obj is Vector2 && Equals((Vector2)obj); }
        /// <summary>A hash of the components.</summary>
        public override int GetHashCode() { return x.GetHashCode() ^ (y.GetHashCode() << 2); }
        /// <summary>"(x, y)" with three decimals.</summary>
        public override string ToString() { return string.Format("({0:F3}, {1:F3})", x, y); }
    }
}
