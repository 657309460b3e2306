using System;
using System.Runtime.InteropServices;

namespace UEngine
{
    /// <summary>
    /// A rotation laid out exactly like glm::quat with GLM 0.9.9's default storage order: x, y,
    /// z, then w. The API is Unity's, in Unity's basis (+X right, +Y up, +Z forward) and with
    /// Unity's Euler order (Z, then X, then Y); the arithmetic is GLM's, which gives exactly
    /// Unity's results: Euler(0, 90, 0) * Vector3.forward is Vector3.right.
    /// </summary>
    [Serializable, StructLayout(LayoutKind.Sequential)]
    public struct Quaternion : IEquatable<Quaternion>
    {
        /// <summary>The tolerance of <c>==</c> on the dot product (Unity's 1e-6).</summary>
        public const float kEpsilon = 0.000001f;

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

        /// <summary>The component at <paramref name="index"/>: 0 to 3 are x, y, z, w; any other index throws IndexOutOfRangeException.</summary>
        public float this[int index]
        {
            get
            {
                switch (index)
                {
                    case 0: return x;
                    case 1: return y;
                    case 2: return z;
                    case 3: return w;
                    default: throw new IndexOutOfRangeException("Invalid Quaternion index " + index);
                }
            }
            set
            {
                switch (index)
                {
                    case 0: x = value; break;
                    case 1: y = value; break;
                    case 2: z = value; break;
                    case 3: w = value; break;
                    default: throw new IndexOutOfRangeException("Invalid Quaternion index " + index);
                }
            }
        }

        /// <summary>Sets all four components (not normalised here).</summary>
        public void Set(float newX, float newY, float newZ, float newW) { x = newX; y = newY; z = newZ; w = newW; }

        /// <summary>No rotation: (0, 0, 0, 1).</summary>
        public static Quaternion identity { get { return new Quaternion(0f, 0f, 0f, 1f); } }

        /// <summary>
        /// A rotation of <paramref name="angle"/> degrees about <paramref name="axis"/> (normalised
        /// here; identity for a zero axis). Positive angles turn clockwise seen from the axis' tip
        /// (Unity's left-handed rule): AngleAxis(90, Vector3.up) * Vector3.forward is Vector3.right.
        /// </summary>
        public static Quaternion AngleAxis(float angle, Vector3 axis)
        {
            float length = axis.magnitude;
            if (length < Vector3.kEpsilon) return identity;
            double half = angle * Math.PI / 360.0;
            float s = (float)Math.Sin(half) / length;
            return new Quaternion(axis.x * s, axis.y * s, axis.z * s, (float)Math.Cos(half));
        }
        /// <summary>
        /// The angle in degrees, in [0, 360], and the unit axis of this rotation (<see cref="AngleAxis"/>'s
        /// inverse, as Unity: AngleAxis(270, up) gives 270 about up); the axis is +X for no rotation.
        /// </summary>
        public void ToAngleAxis(out float angle, out Vector3 axis)
        {
            Quaternion q = normalized;
            double s = Math.Sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
            angle = (float)(2.0 * Math.Atan2(s, q.w) * (180.0 / Math.PI));
            axis = s < 1e-7 ? Vector3.right : new Vector3((float)(q.x / s), (float)(q.y / s), (float)(q.z / s));
        }

        /// <summary>
        /// The rotation by <paramref name="z"/> degrees about Z, then <paramref name="x"/> about X, then
        /// <paramref name="y"/> about Y (Unity's order): AngleAxis(y, up) * AngleAxis(x, right) * AngleAxis(z, forward).
        /// </summary>
        public static Quaternion Euler(float x, float y, float z)
        {
            const double halfDegree = Math.PI / 360.0;
            double sx = Math.Sin(x * halfDegree), cx = Math.Cos(x * halfDegree);
            double sy = Math.Sin(y * halfDegree), cy = Math.Cos(y * halfDegree);
            double sz = Math.Sin(z * halfDegree), cz = Math.Cos(z * halfDegree);
            return new Quaternion(
                (float)(cy * sx * cz + sy * cx * sz),
                (float)(sy * cx * cz - cy * sx * sz),
                (float)(cy * cx * sz - sy * sx * cz),
                (float)(cy * cx * cz + sy * sx * sz));
        }
        /// <summary>Euler(euler.x, euler.y, euler.z).</summary>
        public static Quaternion Euler(Vector3 euler) { return Euler(euler.x, euler.y, euler.z); }

        /// <summary>
        /// This rotation as Euler angles in degrees (<see cref="Euler(float, float, float)"/>'s inverse),
        /// each in [0, 360) as Unity returns them (a rounding error below 0 stays a tiny negative
        /// rather than becoming 359.99…). x is within [0, 90] or [270, 360); at x = ±90 (gimbal
        /// lock) z is 0 and y carries the whole turn. Setting it sets the rotation to Euler(value).
        /// </summary>
        public Vector3 eulerAngles
        {
            get
            {
                Quaternion q = normalized;
                double qx = q.x, qy = q.y, qz = q.z, qw = q.w;
                // The rotation matrix R = Ry Rx Rz: R12 = -sin x, (R10, R11) = cos x (sin z, cos z),
                // (R02, R22) = cos x (sin y, cos y).
                double sinX = 2.0 * (qw * qx - qy * qz);
                double r10 = 2.0 * (qx * qy + qw * qz), r11 = 1.0 - 2.0 * (qx * qx + qz * qz);
                double cosX = Math.Sqrt(r10 * r10 + r11 * r11);
                double ex, ey, ez;
                if (cosX > 1e-6)
                {
                    ex = Math.Atan2(sinX, cosX);
                    ey = Math.Atan2(2.0 * (qx * qz + qw * qy), 1.0 - 2.0 * (qx * qx + qy * qy));
                    ez = Math.Atan2(r10, r11);
                }
                else // gimbal lock: only y - z (x = 90) or y + z (x = -90) is known; z is 0
                {
                    double sign = sinX < 0.0 ? -1.0 : 1.0;
                    ex = sign * Math.PI / 2.0;
                    ey = Math.Atan2(sign * 2.0 * (qx * qy - qw * qz), 1.0 - 2.0 * (qy * qy + qz * qz));
                    ez = 0.0;
                }
                const double toDegrees = 180.0 / Math.PI;
                return new Vector3(MakePositive(ex * toDegrees), MakePositive(ey * toDegrees), MakePositive(ez * toDegrees));
            }
            set { this = Euler(value); }
        }

        // Unity's wrap of an angle into [0, 360): a rounding error just below 0 stays as it is.
        static float MakePositive(double degrees)
        {
            const double flip = -0.0001 * (180.0 / Math.PI);
            if (degrees < flip) degrees += 360.0;
            else if (degrees > 360.0 + flip) degrees -= 360.0;
            return (float)degrees;
        }

        /// <summary>
        /// The rotation that turns <see cref="Vector3.forward"/> to <paramref name="forward"/> and keeps
        /// <see cref="Vector3.up"/> as close to <paramref name="upwards"/> as it can. Identity for a zero
        /// forward; when forward is parallel to upwards, FromToRotation(Vector3.forward, forward), as Unity.
        /// </summary>
        public static Quaternion LookRotation(Vector3 forward, Vector3 upwards)
        {
            float length = forward.magnitude;
            if (length < Vector3.kEpsilon) return identity;
            Vector3 zAxis = forward / length;
            Vector3 xAxis = Vector3.Cross(upwards, zAxis);
            float xLength = xAxis.magnitude;
            if (xLength < Vector3.kEpsilon) return FromToRotation(Vector3.forward, zAxis);
            xAxis = xAxis / xLength;
            return FromBasis(xAxis, Vector3.Cross(zAxis, xAxis), zAxis);
        }
        /// <summary>LookRotation(forward, Vector3.up): faces <paramref name="forward"/>, upright.</summary>
        public static Quaternion LookRotation(Vector3 forward) { return LookRotation(forward, Vector3.up); }
        /// <summary>Sets this to LookRotation(<paramref name="view"/>).</summary>
        public void SetLookRotation(Vector3 view) { this = LookRotation(view, Vector3.up); }
        /// <summary>Sets this to LookRotation(<paramref name="view"/>, <paramref name="up"/>).</summary>
        public void SetLookRotation(Vector3 view, Vector3 up) { this = LookRotation(view, up); }

        // The rotation whose matrix has the orthonormal columns x, y, z (Shoemake's method).
        static Quaternion FromBasis(Vector3 x, Vector3 y, Vector3 z)
        {
            float trace = x.x + y.y + z.z;
            if (trace > 0f)
            {
                float s = (float)Math.Sqrt(trace + 1f) * 2f;
                return new Quaternion((y.z - z.y) / s, (z.x - x.z) / s, (x.y - y.x) / s, 0.25f * s);
            }
            if (x.x > y.y && x.x > z.z)
            {
                float s = (float)Math.Sqrt(1f + x.x - y.y - z.z) * 2f;
                return new Quaternion(0.25f * s, (y.x + x.y) / s, (z.x + x.z) / s, (y.z - z.y) / s);
            }
            if (y.y > z.z)
            {
                float s = (float)Math.Sqrt(1f + y.y - x.x - z.z) * 2f;
                return new Quaternion((y.x + x.y) / s, 0.25f * s, (z.y + y.z) / s, (z.x - x.z) / s);
            }
            float t = (float)Math.Sqrt(1f + z.z - x.x - y.y) * 2f;
            return new Quaternion((z.x + x.z) / t, (z.y + y.z) / t, 0.25f * t, (x.y - y.x) / t);
        }

        /// <summary>
        /// The shortest rotation that turns the direction <paramref name="fromDirection"/> to
        /// <paramref name="toDirection"/>; for opposite directions a half turn about an axis
        /// perpendicular to both, chosen as Unity chooses it. Identity when either is zero.
        /// </summary>
        public static Quaternion FromToRotation(Vector3 fromDirection, Vector3 toDirection)
        {
            Vector3 from = fromDirection.normalized, to = toDirection.normalized;
            if (from == Vector3.zero || to == Vector3.zero) return identity;
            float w = 1f + Vector3.Dot(from, to);
            if (w < 1e-6f)
            {
                // Half a turn about from × (the axis least along from), as Möller and Hughes do.
                float ax = Math.Abs(from.x), ay = Math.Abs(from.y), az = Math.Abs(from.z);
                Vector3 other = ax < ay ? (ax < az ? Vector3.right : Vector3.forward)
                                        : (ay < az ? Vector3.up : Vector3.forward);
                Vector3 axis = Vector3.Cross(from, other).normalized;
                return new Quaternion(axis.x, axis.y, axis.z, 0f);
            }
            Vector3 c = Vector3.Cross(from, to);
            return new Quaternion(c.x, c.y, c.z, w).normalized;
        }
        /// <summary>Sets this to FromToRotation(<paramref name="fromDirection"/>, <paramref name="toDirection"/>).</summary>
        public void SetFromToRotation(Vector3 fromDirection, Vector3 toDirection) { this = FromToRotation(fromDirection, toDirection); }

        /// <summary>The dot product of the components: 1 for equal unit rotations, -1 for q and -q (also equal as rotations).</summary>
        public static float Dot(Quaternion a, Quaternion b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
        /// <summary>The angle in degrees of the rotation that takes <paramref name="a"/> to <paramref name="b"/>, in [0, 180].</summary>
        public static float Angle(Quaternion a, Quaternion b)
        {
            float dot = Math.Min(Math.Abs(Dot(a, b)), 1f);
            return dot > 1f - kEpsilon ? 0f : (float)Math.Acos(dot) * 2f * Mathf.Rad2Deg;
        }
        /// <summary>
        /// <paramref name="from"/> turned towards <paramref name="to"/> by at most
        /// <paramref name="maxDegreesDelta"/> degrees, never past it; a negative delta turns away.
        /// </summary>
        public static Quaternion RotateTowards(Quaternion from, Quaternion to, float maxDegreesDelta)
        {
            float angle = Angle(from, to);
            if (angle == 0f) return to;
            return SlerpUnclamped(from, to, Math.Min(1f, maxDegreesDelta / angle));
        }

        /// <summary>
        /// Spherical interpolation: a fraction <paramref name="t"/> (clamped to [0, 1]) of the shorter
        /// way from <paramref name="a"/> to <paramref name="b"/>, at a steady angular speed.
        /// </summary>
        public static Quaternion Slerp(Quaternion a, Quaternion b, float t) { return SlerpUnclamped(a, b, Mathf.Clamp01(t)); }
        /// <summary>Slerp with t not clamped (it keeps turning past <paramref name="b"/>).</summary>
        public static Quaternion SlerpUnclamped(Quaternion a, Quaternion b, float t)
        {
            float cos = Dot(a, b);
            if (cos < 0f) { b = new Quaternion(-b.x, -b.y, -b.z, -b.w); cos = -cos; }
            if (cos > 1f - 1e-6f) return LerpRaw(a, b, t).normalized;
            double angle = Math.Acos(cos), sin = Math.Sin(angle);
            float wa = (float)(Math.Sin((1.0 - t) * angle) / sin), wb = (float)(Math.Sin(t * angle) / sin);
            return new Quaternion(a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb, a.w * wa + b.w * wb);
        }
        /// <summary>
        /// The components interpolated along the shorter way and normalised: faster than Slerp, and
        /// the same at t = 0, ½ and 1 (but not at a steady speed); t is clamped to [0, 1].
        /// </summary>
        public static Quaternion Lerp(Quaternion a, Quaternion b, float t) { return LerpUnclamped(a, b, Mathf.Clamp01(t)); }
        /// <summary>Lerp with t not clamped.</summary>
        public static Quaternion LerpUnclamped(Quaternion a, Quaternion b, float t)
        {
            if (Dot(a, b) < 0f) b = new Quaternion(-b.x, -b.y, -b.z, -b.w);
            return LerpRaw(a, b, t).normalized;
        }
        static Quaternion LerpRaw(Quaternion a, Quaternion b, float t)
        {
            return new Quaternion(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t);
        }

        /// <summary>The opposite rotation: (-x, -y, -z, w) divided by the squared length (the conjugate for a unit quaternion).</summary>
        public static Quaternion Inverse(Quaternion rotation)
        {
            float sqr = Dot(rotation, rotation);
            if (sqr < Mathf.Epsilon) return identity;
            return new Quaternion(-rotation.x / sqr, -rotation.y / sqr, -rotation.z / sqr, rotation.w / sqr);
        }
        /// <summary>The inverse rotation of a unit quaternion: (-x, -y, -z, w).</summary>
        public Quaternion conjugate { get { return new Quaternion(-x, -y, -z, w); } }

        /// <summary><paramref name="q"/> scaled to length 1, or <see cref="identity"/> when it is (nearly) zero.</summary>
        public static Quaternion Normalize(Quaternion q)
        {
            float m = (float)Math.Sqrt(Dot(q, q));
            return m < Mathf.Epsilon ? identity : new Quaternion(q.x / m, q.y / m, q.z / m, q.w / m);
        }
        /// <summary>This quaternion scaled to length 1, or <see cref="identity"/> when it is (nearly) zero.</summary>
        public Quaternion normalized { get { return Normalize(this); } }
        /// <summary>Scales this quaternion to length 1 in place (to <see cref="identity"/> when it is (nearly) zero).</summary>
        public void Normalize() { this = Normalize(this); }

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

        /// <summary>
        /// Approximate equality, as Unity's: the dot product exceeds 1 - <see cref="kEpsilon"/>. So
        /// q and -q (the same rotation) are not ==; compare rotations with <see cref="Angle"/>.
        /// <see cref="Equals(Quaternion)"/> is exact.
        /// </summary>
        public static bool operator ==(Quaternion a, Quaternion b) { return Dot(a, b) > 1f - kEpsilon; }
        /// <summary>Not <c>==</c>.</summary>
        public static bool operator !=(Quaternion a, Quaternion b) { return !(a == b); }

        /// <summary>Exact equality of every component (what dictionaries and hash sets use).</summary>
        public bool Equals(Quaternion other) { return x.Equals(other.x) && y.Equals(other.y) && z.Equals(other.z) && w.Equals(other.w); }
        /// <summary>True for a Quaternion exactly equal to this one.</summary>
        public override bool Equals(object obj) { return obj is Quaternion && Equals((Quaternion)obj); }
        /// <summary>A hash of the components.</summary>
        public override int GetHashCode() { return x.GetHashCode() ^ (y.GetHashCode() << 2) ^ (z.GetHashCode() >> 2) ^ (w.GetHashCode() >> 1); }
        /// <summary>"(x, y, z, w)" with four decimals.</summary>
        public override string ToString() { return string.Format("({0:F4}, {1:F4}, {2:F4}, {3:F4})", x, y, z, w); }
    }
}
