using System;
using System.Runtime.InteropServices;

namespace UEngine
{
    /// <summary>
    /// A 3D vector laid out exactly like glm::vec3 (three floats), with Unity's Vector3 API and
    /// Unity's basis: +X right, +Y up, +Z forward (docs/SDK.md, "Transform").
    /// </summary>
    [Serializable, StructLayout(LayoutKind.Sequential)]
    public struct Vector3 : IEquatable<Vector3>
    {
        /// <summary>The tolerance of <c>==</c>: vectors closer than this are equal (Unity's 1e-5).</summary>
        public const float kEpsilon = 0.00001f;
        /// <summary>Below this (squared lengths multiplied), an angle between vectors is taken as 0.</summary>
        public const float kEpsilonNormalSqrt = 1e-15f;

        /// <summary>The X component (right).</summary>
        public float x;
        /// <summary>The Y component (up).</summary>
        public float y;
        /// <summary>The Z component (forward).</summary>
        public float z;

        /// <summary>A vector of the given components.</summary>
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        /// <summary>A vector (<paramref name="x"/>, <paramref name="y"/>, 0).</summary>
        public Vector3(float x, float y) { this.x = x; this.y = y; z = 0f; }

        /// <summary>The component at <paramref name="index"/>: 0 is x, 1 is y, 2 is z; any other index throws IndexOutOfRangeException.</summary>
        public float this[int index]
        {
            get
            {
                switch (index)
                {
                    case 0: return x;
                    case 1: return y;
                    case 2: return z;
                    default: throw new IndexOutOfRangeException("Invalid Vector3 index " + index);
                }
            }
            set
            {
                switch (index)
                {
                    case 0: x = value; break;
                    case 1: y = value; break;
                    case 2: z = value; break;
                    default: throw new IndexOutOfRangeException("Invalid Vector3 index " + index);
                }
            }
        }

        /// <summary>Sets all three components.</summary>
        public void Set(float newX, float newY, float newZ) { x = newX; y = newY; z = newZ; }

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
        /// <summary>(+∞, +∞, +∞).</summary>
        public static Vector3 positiveInfinity { get { return new Vector3(float.PositiveInfinity, float.PositiveInfinity, float.PositiveInfinity); } }
        /// <summary>(-∞, -∞, -∞).</summary>
        public static Vector3 negativeInfinity { get { return new Vector3(float.NegativeInfinity, float.NegativeInfinity, float.NegativeInfinity); } }

        /// <summary>The squared length: cheaper than <see cref="magnitude"/> for comparisons.</summary>
        public float sqrMagnitude { get { return x * x + y * y + z * z; } }
        /// <summary>The length.</summary>
        public float magnitude { get { return (float)Math.Sqrt(x * x + y * y + z * z); } }
        /// <summary>This vector scaled to length 1, or <see cref="zero"/> when it is shorter than <see cref="kEpsilon"/>.</summary>
        public Vector3 normalized { get { return Normalize(this); } }
        /// <summary>Scales this vector to length 1 in place (to <see cref="zero"/> when it is shorter than <see cref="kEpsilon"/>).</summary>
        public void Normalize() { this = Normalize(this); }
        /// <summary><paramref name="value"/> scaled to length 1, or <see cref="zero"/> when it is shorter than <see cref="kEpsilon"/>.</summary>
        public static Vector3 Normalize(Vector3 value)
        {
            float m = value.magnitude;
            return m > kEpsilon ? value / m : zero;
        }
        /// <summary>The length of <paramref name="vector"/>.</summary>
        public static float Magnitude(Vector3 vector) { return vector.magnitude; }
        /// <summary>The squared length of <paramref name="vector"/>.</summary>
        public static float SqrMagnitude(Vector3 vector) { return vector.sqrMagnitude; }

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
        /// <summary>The unsigned angle in degrees between two directions, in [0, 180]; 0 when either is (nearly) zero.</summary>
        public static float Angle(Vector3 from, Vector3 to)
        {
            float denominator = (float)Math.Sqrt(from.sqrMagnitude * to.sqrMagnitude);
            if (denominator < kEpsilonNormalSqrt) return 0f;
            float cos = Mathf.Clamp(Dot(from, to) / denominator, -1f, 1f);
            return (float)Math.Acos(cos) * Mathf.Rad2Deg;
        }
        /// <summary>
        /// The angle in degrees from <paramref name="from"/> to <paramref name="to"/>, in [-180, 180]:
        /// positive when Cross(from, to) points along <paramref name="axis"/> (a clockwise turn seen from
        /// the axis' tip, in Unity's basis: SignedAngle(forward, right, up) is 90).
        /// </summary>
        public static float SignedAngle(Vector3 from, Vector3 to, Vector3 axis)
        {
            return Angle(from, to) * Mathf.Sign(Dot(axis, Cross(from, to)));
        }

        /// <summary>The point a fraction <paramref name="t"/> of the way from <paramref name="a"/> to <paramref name="b"/>; t is clamped to [0, 1].</summary>
        public static Vector3 Lerp(Vector3 a, Vector3 b, float t) { return LerpUnclamped(a, b, Mathf.Clamp01(t)); }
        /// <summary>Lerp with t not clamped (t = 2 goes as far again past <paramref name="b"/>).</summary>
        public static Vector3 LerpUnclamped(Vector3 a, Vector3 b, float t)
        {
            return new Vector3(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
        }
        /// <summary>
        /// Interpolates two vectors as directions: the direction turns from <paramref name="a"/>'s to
        /// <paramref name="b"/>'s at a steady rate, the length goes linearly; t is clamped to [0, 1].
        /// </summary>
        public static Vector3 Slerp(Vector3 a, Vector3 b, float t) { return SlerpUnclamped(a, b, Mathf.Clamp01(t)); }
        /// <summary>Slerp with t not clamped (it keeps turning past <paramref name="b"/>).</summary>
        public static Vector3 SlerpUnclamped(Vector3 a, Vector3 b, float t)
        {
            float lengthA = a.magnitude, lengthB = b.magnitude;
            if (lengthA < kEpsilon || lengthB < kEpsilon) return LerpUnclamped(a, b, t);
            Vector3 from = a / lengthA, to = b / lengthB;
            float length = lengthA + (lengthB - lengthA) * t;
            Vector3 axis = Cross(from, to);
            if (axis.sqrMagnitude < 1e-12f) // parallel or opposite: turn about any perpendicular axis
            {
                if (Dot(from, to) > 0f) return from * length;
                axis = Cross(from, Math.Abs(from.x) < 0.9f ? right : up);
            }
            return Quaternion.AngleAxis(Angle(from, to) * t, axis) * from * length;
        }
        /// <summary>
        /// <paramref name="current"/> moved in a straight line towards <paramref name="target"/> by at
        /// most <paramref name="maxDistanceDelta"/>, never past it; a negative delta moves away.
        /// </summary>
        public static Vector3 MoveTowards(Vector3 current, Vector3 target, float maxDistanceDelta)
        {
            Vector3 toTarget = target - current;
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
        public static Vector3 SmoothDamp(Vector3 current, Vector3 target, ref Vector3 currentVelocity, float smoothTime)
        {
            return SmoothDamp(current, target, ref currentVelocity, smoothTime, Mathf.Infinity, Time.deltaTime);
        }
        /// <summary>SmoothDamp no faster than <paramref name="maxSpeed"/> units per second (the length of the whole step is limited).</summary>
        public static Vector3 SmoothDamp(Vector3 current, Vector3 target, ref Vector3 currentVelocity, float smoothTime,
                                         float maxSpeed)
        {
            return SmoothDamp(current, target, ref currentVelocity, smoothTime, maxSpeed, Time.deltaTime);
        }
        /// <summary>SmoothDamp over <paramref name="deltaTime"/> seconds instead of this frame's.</summary>
        public static Vector3 SmoothDamp(Vector3 current, Vector3 target, ref Vector3 currentVelocity, float smoothTime,
                                         float maxSpeed, float deltaTime)
        {
            // Mathf.SmoothDamp's step per component; the distance limit and the overshoot test are
            // taken on the vector, as Unity does.
            smoothTime = Mathf.Max(0.0001f, smoothTime);
            float omega = 2f / smoothTime;
            float k = omega * deltaTime;
            float exp = 1f / (1f + k + 0.48f * k * k + 0.235f * k * k * k);
            Vector3 change = ClampMagnitude(current - target, maxSpeed * smoothTime);
            Vector3 originalTo = target;
            target = current - change;
            Vector3 temp = (currentVelocity + change * omega) * deltaTime;
            currentVelocity = (currentVelocity - temp * omega) * exp;
            Vector3 output = target + (change + temp) * exp;
            if (Dot(originalTo - current, output - originalTo) > 0f)
            {
                output = originalTo;
                currentVelocity = zero;
            }
            return output;
        }

        /// <summary><paramref name="vector"/> shortened to <paramref name="maxLength"/> if it is longer; the direction is kept.</summary>
        public static Vector3 ClampMagnitude(Vector3 vector, float maxLength)
        {
            float sqr = vector.sqrMagnitude;
            if (sqr <= maxLength * maxLength) return vector;
            return vector * (maxLength / (float)Math.Sqrt(sqr));
        }
        /// <summary>The component-wise product of <paramref name="a"/> and <paramref name="b"/>.</summary>
        public static Vector3 Scale(Vector3 a, Vector3 b) { return new Vector3(a.x * b.x, a.y * b.y, a.z * b.z); }
        /// <summary>Multiplies this vector component-wise by <paramref name="scale"/>, in place.</summary>
        public void Scale(Vector3 scale) { x *= scale.x; y *= scale.y; z *= scale.z; }
        /// <summary>The component-wise minimum.</summary>
        public static Vector3 Min(Vector3 a, Vector3 b) { return new Vector3(Mathf.Min(a.x, b.x), Mathf.Min(a.y, b.y), Mathf.Min(a.z, b.z)); }
        /// <summary>The component-wise maximum.</summary>
        public static Vector3 Max(Vector3 a, Vector3 b) { return new Vector3(Mathf.Max(a.x, b.x), Mathf.Max(a.y, b.y), Mathf.Max(a.z, b.z)); }

        /// <summary><paramref name="vector"/> projected onto the line along <paramref name="onNormal"/> (any length); zero when onNormal is zero.</summary>
        public static Vector3 Project(Vector3 vector, Vector3 onNormal)
        {
            float sqr = Dot(onNormal, onNormal);
            if (sqr < Mathf.Epsilon) return zero;
            return onNormal * (Dot(vector, onNormal) / sqr);
        }
        /// <summary><paramref name="vector"/> projected onto the plane through the origin whose normal is <paramref name="planeNormal"/> (any length).</summary>
        public static Vector3 ProjectOnPlane(Vector3 vector, Vector3 planeNormal)
        {
            float sqr = Dot(planeNormal, planeNormal);
            if (sqr < Mathf.Epsilon) return vector;
            return vector - planeNormal * (Dot(vector, planeNormal) / sqr);
        }
        /// <summary><paramref name="inDirection"/> bounced off the plane of unit normal <paramref name="inNormal"/>.</summary>
        public static Vector3 Reflect(Vector3 inDirection, Vector3 inNormal)
        {
            return inDirection - inNormal * (2f * Dot(inNormal, inDirection));
        }

        /// <summary>Component-wise sum.</summary>
        public static Vector3 operator +(Vector3 a, Vector3 b) { return new Vector3(a.x + b.x, a.y + b.y, a.z + b.z); }
        /// <summary>Component-wise difference.</summary>
        public static Vector3 operator -(Vector3 a, Vector3 b) { return new Vector3(a.x - b.x, a.y - b.y, a.z - b.z); }
        /// <summary>The opposite vector.</summary>
        public static Vector3 operator -(Vector3 a) { return new Vector3(-a.x, -a.y, -a.z); }
        /// <summary>Scales every component by <paramref name="s"/>.</summary>
        public static Vector3 operator *(Vector3 a, float s) { return new Vector3(a.x * s, a.y * s, a.z * s); }
        /// <summary>Scales every component by <paramref name="s"/>.</summary>
        public static Vector3 operator *(float s, Vector3 a) { return new Vector3(a.x * s, a.y * s, a.z * s); }
        /// <summary>Divides every component by <paramref name="s"/>.</summary>
        public static Vector3 operator /(Vector3 a, float s) { return new Vector3(a.x / s, a.y / s, a.z / s); }
        /// <summary>
        /// Approximate equality, as Unity's: true when the vectors are closer than
        /// <see cref="kEpsilon"/> (the squared distance is below 1e-10). <see cref="Equals(Vector3)"/> is exact.
        /// </summary>
        public static bool operator ==(Vector3 a, Vector3 b)
        {
            float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
            return dx * dx + dy * dy + dz * dz < kEpsilon * kEpsilon;
        }
        /// <summary>Not <c>==</c>: the vectors are at least <see cref="kEpsilon"/> apart.</summary>
        public static bool operator !=(Vector3 a, Vector3 b) { return !(a == b); }

        /// <summary>Exact equality of every component (what dictionaries and hash sets use).</summary>
        public bool Equals(Vector3 other) { return x.Equals(other.x) && y.Equals(other.y) && z.Equals(other.z); }
        /// <summary>True for a Vector3 exactly equal to this one.</summary>
        public override bool Equals(object obj) { return obj is Vector3 && Equals((Vector3)obj); }
        /// <summary>A hash of the components.</summary>
        public override int GetHashCode() { return x.GetHashCode() ^ (y.GetHashCode() << 2) ^ (z.GetHashCode() >> 2); }
        /// <summary>"(x, y, z)" with three decimals.</summary>
        public override string ToString() { return string.Format("({0:F3}, {1:F3}, {2:F3})", x, y, z); }
    }
}
