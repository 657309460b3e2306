using System;
using System.Runtime.InteropServices;

namespace UEngine
{
    /// <summary>A 2D vector laid out exactly like glm::vec2 (two floats), with Unity's Vector2 API.</summary>
    [Serializable, StructLayout(LayoutKind.Sequential)]
    public struct Vector2 : IEquatable<Vector2>
    {
        /// <summary>The tolerance of <c>==</c>: vectors closer than this are equal (Unity's 1e-5).</summary>
        public const float kEpsilon = 0.00001f;
        /// <summary>Below this (squared lengths multiplied), an angle between vectors is taken as 0.</summary>
        public const float kEpsilonNormalSqrt = 1e-15f;

        /// <summary>The X component (right).</summary>
        public float x;
        /// <summary>The Y component (up).</summary>
        public float y;

        /// <summary>A vector of the given components.</summary>
        public Vector2(float x, float y) { this.x = x; this.y = y; }

        /// <summary>The component at <paramref name="index"/>: 0 is x, 1 is y; any other index throws IndexOutOfRangeException.</summary>
        public float this[int index]
        {
            get
            {
                if (index == 0) return x;
                if (index == 1) return y;
                throw new IndexOutOfRangeException("Invalid Vector2 index " + index);
            }
            set
            {
                if (index == 0) x = value;
                else if (index == 1) y = value;
                else throw new IndexOutOfRangeException("Invalid Vector2 index " + index);
            }
        }

        /// <summary>Sets both components.</summary>
        public void Set(float newX, float newY) { x = newX; y = newY; }

        /// <summary>(0, 0).</summary>
        public static Vector2 zero { get { return new Vector2(0f, 0f); } }
        /// <summary>(1, 1).</summary>
        public static Vector2 one { get { return new Vector2(1f, 1f); } }
        /// <summary>(0, 1).</summary>
        public static Vector2 up { get { return new Vector2(0f, 1f); } }
        /// <summary>(0, -1).</summary>
        public static Vector2 down { get { return new Vector2(0f, -1f); } }
        /// <summary>(-1, 0).</summary>
        public static Vector2 left { get { return new Vector2(-1f, 0f); } }
        /// <summary>(1, 0).</summary>
        public static Vector2 right { get { return new Vector2(1f, 0f); } }
        /// <summary>(+∞, +∞).</summary>
        public static Vector2 positiveInfinity { get { return new Vector2(float.PositiveInfinity, float.PositiveInfinity); } }
        /// <summary>(-∞, -∞).</summary>
        public static Vector2 negativeInfinity { get { return new Vector2(float.NegativeInfinity, float.NegativeInfinity); } }

        /// <summary>The squared length: cheaper than <see cref="magnitude"/> for comparisons.</summary>
        public float sqrMagnitude { get { return x * x + y * y; } }
        /// <summary>The length.</summary>
        public float magnitude { get { return (float)Math.Sqrt(x * x + y * y); } }
        /// <summary>This vector scaled to length 1, or <see cref="zero"/> when it is shorter than <see cref="kEpsilon"/>.</summary>
        public Vector2 normalized
        {
            get { float m = magnitude; return m > kEpsilon ? this / m : zero; }
        }
        /// <summary>Scales this vector to length 1 in place (to <see cref="zero"/> when it is shorter than <see cref="kEpsilon"/>).</summary>
        public void Normalize() { this = normalized; }
        /// <summary>The squared length of <paramref name="a"/>.</summary>
        public static float SqrMagnitude(Vector2 a) { return a.sqrMagnitude; }

        /// <summary>The dot product of <paramref name="a"/> and <paramref name="b"/>.</summary>
        public static float Dot(Vector2 a, Vector2 b) { return a.x * b.x + a.y * b.y; }
        /// <summary>The distance between the points <paramref name="a"/> and <paramref name="b"/>.</summary>
        public static float Distance(Vector2 a, Vector2 b) { return (a - b).magnitude; }
        /// <summary><paramref name="inDirection"/> turned 90° counter-clockwise: (-y, x).</summary>
        public static Vector2 Perpendicular(Vector2 inDirection) { return new Vector2(-inDirection.y, inDirection.x); }
        /// <summary>The unsigned angle in degrees between two directions, in [0, 180]; 0 when either is (nearly) zero.</summary>
        public static float Angle(Vector2 from, Vector2 to)
        {
            float denominator = (float)Math.Sqrt(from.sqrMagnitude * to.sqrMagnitude);
            if (denominator < kEpsilonNormalSqrt) return 0f;
            float cos = Mathf.Clamp(Dot(from, to) / denominator, -1f, 1f);
            return (float)Math.Acos(cos) * Mathf.Rad2Deg;
        }
        /// <summary>The angle in degrees from <paramref name="from"/> to <paramref name="to"/>, in [-180, 180]: positive counter-clockwise (SignedAngle(right, up) is 90).</summary>
        public static float SignedAngle(Vector2 from, Vector2 to)
        {
            return Angle(from, to) * Mathf.Sign(from.x * to.y - from.y * to.x);
        }
        /// <summary><paramref name="inDirection"/> bounced off the line of unit normal <paramref name="inNormal"/>.</summary>
        public static Vector2 Reflect(Vector2 inDirection, Vector2 inNormal)
        {
            return inDirection - inNormal * (2f * Dot(inNormal, inDirection));
        }

        /// <summary>The point a fraction <paramref name="t"/> of the way from <paramref name="a"/> to <paramref name="b"/>; t is clamped to [0, 1].</summary>
        public static Vector2 Lerp(Vector2 a, Vector2 b, float t) { return LerpUnclamped(a, b, Mathf.Clamp01(t)); }
        /// <summary>Lerp with t not clamped (t = 2 goes as far again past <paramref name="b"/>).</summary>
        public static Vector2 LerpUnclamped(Vector2 a, Vector2 b, float t)
        {
            return new Vector2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
        }
        /// <summary>
        /// <paramref name="current"/> moved in a straight line towards <paramref name="target"/> by at
        /// most <paramref name="maxDistanceDelta"/>, never past it; a negative delta moves away.
        /// </summary>
        public static Vector2 MoveTowards(Vector2 current, Vector2 target, float maxDistanceDelta)
        {
            Vector2 toTarget = target - current;
            float sqrDistance = toTarget.sqrMagnitude;
            if (sqrDistance == 0f || (maxDistanceDelta >= 0f && sqrDistance <= maxDistanceDelta * maxDistanceDelta))
                return target;
            return current + toTarget / (float)Math.Sqrt(sqrDistance) * maxDistanceDelta;
        }

        /// <summary>
        /// Moves <paramref name="current"/> towards <paramref name="target"/> like a critically damped
        /// spring in about <paramref name="smoothTime"/> seconds, never overshooting, over this frame's
        /// Time.deltaTime (Mathf.SmoothDamp on each component). Keep
        /// <paramref name="currentVelocity"/> in a field: it carries the speed between calls.
        /// </summary>
        public static Vector2 SmoothDamp(Vector2 current, Vector2 target, ref Vector2 currentVelocity, float smoothTime)
        {
            return SmoothDamp(current, target, ref currentVelocity, smoothTime, Mathf.Infinity, Time.deltaTime);
        }
        /// <summary>SmoothDamp no faster than <paramref name="maxSpeed"/> units per second (the length of the whole step is limited).</summary>
        public static Vector2 SmoothDamp(Vector2 current, Vector2 target, ref Vector2 currentVelocity, float smoothTime,
                                         float maxSpeed)
        {
            return SmoothDamp(current, target, ref currentVelocity, smoothTime, maxSpeed, Time.deltaTime);
        }
        /// <summary>SmoothDamp over <paramref name="deltaTime"/> seconds instead of this frame's.</summary>
        public static Vector2 SmoothDamp(Vector2 current, Vector2 target, ref Vector2 currentVelocity, float smoothTime,
                                         float maxSpeed, float deltaTime)
        {
            // As Vector3.SmoothDamp: Mathf.SmoothDamp's step per component, the distance limit and
            // the overshoot test on the vector.
            smoothTime = Mathf.Max(0.0001f, smoothTime);
            float omega = 2f / smoothTime;
            float k = omega * deltaTime;
            float exp = 1f / (1f + k + 0.48f * k * k + 0.235f * k * k * k);
            Vector2 change = ClampMagnitude(current - target, maxSpeed * smoothTime);
            Vector2 originalTo = target;
            target = current - change;
            Vector2 temp = (currentVelocity + change * omega) * deltaTime;
            currentVelocity = (currentVelocity - temp * omega) * exp;
            Vector2 output = target + (change + temp) * exp;
            if (Dot(originalTo - current, output - originalTo) > 0f)
            {
                output = originalTo;
                currentVelocity = zero;
            }
            return output;
        }

        /// <summary><paramref name="vector"/> shortened to <paramref name="maxLength"/> if it is longer; the direction is kept.</summary>
        public static Vector2 ClampMagnitude(Vector2 vector, float maxLength)
        {
            float sqr = vector.sqrMagnitude;
            if (sqr <= maxLength * maxLength) return vector;
            return vector * (maxLength / (float)Math.Sqrt(sqr));
        }
        /// <summary>The component-wise product of <paramref name="a"/> and <paramref name="b"/>.</summary>
        public static Vector2 Scale(Vector2 a, Vector2 b) { return new Vector2(a.x * b.x, a.y * b.y); }
        /// <summary>Multiplies this vector component-wise by <paramref name="scale"/>, in place.</summary>
        public void Scale(Vector2 scale) { x *= scale.x; y *= scale.y; }
        /// <summary>The component-wise minimum.</summary>
        public static Vector2 Min(Vector2 a, Vector2 b) { return new Vector2(Mathf.Min(a.x, b.x), Mathf.Min(a.y, b.y)); }
        /// <summary>The component-wise maximum.</summary>
        public static Vector2 Max(Vector2 a, Vector2 b) { return new Vector2(Mathf.Max(a.x, b.x), Mathf.Max(a.y, b.y)); }

        /// <summary>Component-wise sum.</summary>
        public static Vector2 operator +(Vector2 a, Vector2 b) { return new Vector2(a.x + b.x, a.y + b.y); }
        /// <summary>Component-wise difference.</summary>
        public static Vector2 operator -(Vector2 a, Vector2 b) { return new Vector2(a.x - b.x, a.y - b.y); }
        /// <summary>The opposite vector.</summary>
        public static Vector2 operator -(Vector2 a) { return new Vector2(-a.x, -a.y); }
        /// <summary>Component-wise product (as <see cref="Scale(Vector2, Vector2)"/>).</summary>
        public static Vector2 operator *(Vector2 a, Vector2 b) { return new Vector2(a.x * b.x, a.y * b.y); }
        /// <summary>Component-wise quotient.</summary>
        public static Vector2 operator /(Vector2 a, Vector2 b) { return new Vector2(a.x / b.x, a.y / b.y); }
        /// <summary>Scales every component by <paramref name="s"/>.</summary>
        public static Vector2 operator *(Vector2 a, float s) { return new Vector2(a.x * s, a.y * s); }
        /// <summary>Scales every component by <paramref name="s"/>.</summary>
        public static Vector2 operator *(float s, Vector2 a) { return new Vector2(a.x * s, a.y * s); }
        /// <summary>Divides every component by <paramref name="s"/>.</summary>
        public static Vector2 operator /(Vector2 a, float s) { return new Vector2(a.x / s, a.y / s); }
        /// <summary>
        /// Approximate equality, as Unity's: true when the vectors are closer than
        /// <see cref="kEpsilon"/> (the squared distance is below 1e-10). <see cref="Equals(Vector2)"/> is exact.
        /// </summary>
        public static bool operator ==(Vector2 a, Vector2 b)
        {
            float dx = a.x - b.x, dy = a.y - b.y;
            return dx * dx + dy * dy < kEpsilon * kEpsilon;
        }
        /// <summary>Not <c>==</c>: the vectors are at least <see cref="kEpsilon"/> apart.</summary>
        public static bool operator !=(Vector2 a, Vector2 b) { return !(a == b); }

        /// <summary>(x, y) of <paramref name="v"/>: its z is dropped.</summary>
        public static implicit operator Vector2(Vector3 v) { return new Vector2(v.x, v.y); }
        /// <summary>(x, y, 0).</summary>
        public static implicit operator Vector3(Vector2 v) { return new Vector3(v.x, v.y, 0f); }

        /// <summary>Exact equality of every component (what dictionaries and hash sets use).</summary>
        public bool Equals(Vector2 other) { return x.Equals(other.x) && y.Equals(other.y); }
        /// <summary>True for a Vector2 exactly equal to this one.</summary>
        public override bool Equals(object obj) { return obj is Vector2 && Equals((Vector2)obj); }
        /// <summary>A hash of the components.</summary>
        public override int GetHashCode() { return x.GetHashCode() ^ (y.GetHashCode() << 2); }
        /// <summary>"(x, y)" with three decimals.</summary>
        public override string ToString() { return string.Format("({0:F3}, {1:F3})", x, y); }
    }
}
