using System;

namespace UEngine
{
    /// <summary>
    /// Float math as Unity's <c>Mathf</c> has it: the same names, arguments and results, so a
    /// script written for Unity keeps its meaning. Angles are in degrees where the name says
    /// "Angle", in radians for the trigonometric functions.
    /// </summary>
    public static class Mathf
    {
        /// <summary>π, 3.14159274 as a float.</summary>
        public const float PI = (float)Math.PI;
        /// <summary>Positive infinity.</summary>
        public const float Infinity = float.PositiveInfinity;
        /// <summary>Negative infinity.</summary>
        public const float NegativeInfinity = float.NegativeInfinity;
        /// <summary>Degrees to radians: multiply an angle in degrees by this.</summary>
        public const float Deg2Rad = (float)(Math.PI / 180.0);
        /// <summary>Radians to degrees: multiply an angle in radians by this.</summary>
        public const float Rad2Deg = (float)(180.0 / Math.PI);
        /// <summary>The smallest positive float (a denormal), as Unity's Mathf.Epsilon.</summary>
        public const float Epsilon = float.Epsilon;

        /// <summary>The absolute value of <paramref name="f"/>.</summary>
        public static float Abs(float f) { return Math.Abs(f); }
        /// <summary>The absolute value of <paramref name="value"/>.</summary>
        public static int Abs(int value) { return Math.Abs(value); }
        /// <summary>1 when <paramref name="f"/> is zero or positive, -1 when it is negative (Unity's rule: Sign(0) is 1).</summary>
        public static float Sign(float f) { return f >= 0f ? 1f : -1f; }

        /// <summary>The smaller of two values.</summary>
        public static float Min(float a, float b) { return a < b ? a : b; }
        /// <summary>The smallest of the values; 0 when there are none.</summary>
        public static float Min(params float[] values)
        {
            if (values == null || values.Length == 0) return 0f;
            float min = values[0];
            for (int i = 1; i < values.Length; i++) if (values[i] < min) min = values[i];
            return min;
        }
        /// <summary>The smaller of two values.</summary>
        public static int Min(int a, int b) { return a < b ? a : b; }
        /// <summary>The smallest of the values; 0 when there are none.</summary>
        public static int Min(params int[] values)
        {
            if (values == null || values.Length == 0) return 0;
            int min = values[0];
            for (int i = 1; i < values.Length; i++) if (values[i] < min) min = values[i];
            return min;
        }
        /// <summary>The larger of two values.</summary>
        public static float Max(float a, float b) { return a > b ? a : b; }
        /// <summary>The largest of the values; 0 when there are none.</summary>
        public static float Max(params float[] values)
        {
            if (values == null || values.Length == 0) return 0f;
            float max = values[0];
            for (int i = 1; i < values.Length; i++) if (values[i] > max) max = values[i];
            return max;
        }
        /// <summary>The larger of two values.</summary>
        public static int Max(int a, int b) { return a > b ? a : b; }
        /// <summary>The largest of the values; 0 when there are none.</summary>
        public static int Max(params int[] values)
        {
            if (values == null || values.Length == 0) return 0;
            int max = values[0];
            for (int i = 1; i < values.Length; i++) if (values[i] > max) max = values[i];
            return max;
        }

        /// <summary><paramref name="value"/> kept within [<paramref name="min"/>, <paramref name="max"/>].</summary>
        public static float Clamp(float value, float min, float max)
        {
            if (value < min) return min;
            if (value > max) return max;
            return value;
        }
        /// <summary><paramref name="value"/> kept within [<paramref name="min"/>, <paramref name="max"/>].</summary>
        public static int Clamp(int value, int min, int max)
        {
            if (value < min) return min;
            if (value > max) return max;
            return value;
        }
        /// <summary><paramref name="value"/> kept within [0, 1].</summary>
        public static float Clamp01(float value)
        {
            if (value < 0f) return 0f;
            if (value > 1f) return 1f;
            return value;
        }

        /// <summary>From <paramref name="a"/> (t = 0) to <paramref name="b"/> (t = 1); t is clamped to [0, 1].</summary>
        public static float Lerp(float a, float b, float t) { return a + (b - a) * Clamp01(t); }
        /// <summary>From <paramref name="a"/> to <paramref name="b"/> by t, which is not clamped (t = 2 goes as far again).</summary>
        public static float LerpUnclamped(float a, float b, float t) { return a + (b - a) * t; }
        /// <summary>Lerp for angles in degrees: takes the shorter way round (350 to 10 passes 0).</summary>
        public static float LerpAngle(float a, float b, float t)
        {
            float delta = Repeat(b - a, 360f);
            if (delta > 180f) delta -= 360f;
            return a + delta * Clamp01(t);
        }
        /// <summary>Where <paramref name="value"/> lies between <paramref name="a"/> (0) and <paramref name="b"/> (1), clamped to [0, 1]; 0 when a equals b.</summary>
        public static float InverseLerp(float a, float b, float value)
        {
            if (a == b) return 0f;
            return Clamp01((value - a) / (b - a));
        }
        /// <summary>Hermite interpolation from <paramref name="from"/> to <paramref name="to"/>: eases in and out; t is clamped to [0, 1].</summary>
        public static float SmoothStep(float from, float to, float t)
        {
            t = Clamp01(t);
            t = -2f * t * t * t + 3f * t * t;
            return to * t + from * (1f - t);
        }

        /// <summary><paramref name="t"/> wrapped into [0, <paramref name="length"/>): Repeat(-1, 3) is 2.</summary>
        public static float Repeat(float t, float length)
        {
            return Clamp(t - Floor(t / length) * length, 0f, length);
        }
        /// <summary><paramref name="t"/> bounced between 0 and <paramref name="length"/>: PingPong(3, 2) is 1.</summary>
        public static float PingPong(float t, float length)
        {
            t = Repeat(t, length * 2f);
            return length - Abs(t - length);
        }
        /// <summary>The shortest difference between two angles in degrees, in [-180, 180]: DeltaAngle(1080, 90) is 90.</summary>
        public static float DeltaAngle(float current, float target)
        {
            float delta = Repeat(target - current, 360f);
            if (delta > 180f) delta -= 360f;
            return delta;
        }

        /// <summary><paramref name="current"/> moved towards <paramref name="target"/> by at most <paramref name="maxDelta"/>, never past it; a negative maxDelta moves away.</summary>
        public static float MoveTowards(float current, float target, float maxDelta)
        {
            if (Abs(target - current) <= maxDelta) return target;
            return current + Sign(target - current) * maxDelta;
        }
        /// <summary>MoveTowards for angles in degrees: takes the shorter way round, and wraps.</summary>
        public static float MoveTowardsAngle(float current, float target, float maxDelta)
        {
            float delta = DeltaAngle(current, target);
            if (-maxDelta < delta && delta < maxDelta) return target;
            target = current + delta;
            return MoveTowards(current, target, maxDelta);
        }

        /// <summary>
        /// Moves <paramref name="current"/> towards <paramref name="target"/> like a critically damped
        /// spring, in about <paramref name="smoothTime"/> seconds, never overshooting, over this frame's
        /// Time.deltaTime. <paramref name="currentVelocity"/> carries the speed from one call to the next:
        /// keep it in a field.
        /// </summary>
        public static float SmoothDamp(float current, float target, ref float currentVelocity, float smoothTime)
        {
            return SmoothDamp(current, target, ref currentVelocity, smoothTime, Infinity, Time.deltaTime);
        }
        /// <summary>SmoothDamp no faster than <paramref name="maxSpeed"/> units per second.</summary>
        public static float SmoothDamp(float current, float target, ref float currentVelocity, float smoothTime,
                                       float maxSpeed)
        {
            return SmoothDamp(current, target, ref currentVelocity, smoothTime, maxSpeed, Time.deltaTime);
        }
        /// <summary>SmoothDamp over <paramref name="deltaTime"/> seconds instead of this frame's.</summary>
        public static float SmoothDamp(float current, float target, ref float currentVelocity, float smoothTime,
                                       float maxSpeed, float deltaTime)
        {
            // Game Programming Gems 4, 1.10: the spring's exact step, approximated to third order.
            smoothTime = Max(0.0001f, smoothTime);
            float omega = 2f / smoothTime;
            float x = omega * deltaTime;
            float exp = 1f / (1f + x + 0.48f * x * x + 0.235f * x * x * x);
            float change = current - target;
            float originalTo = target;
            float maxChange = maxSpeed * smoothTime;
            change = Clamp(change, -maxChange, maxChange);
            target = current - change;
            float temp = (currentVelocity + omega * change) * deltaTime;
            currentVelocity = (currentVelocity - omega * temp) * exp;
            float output = target + (change + temp) * exp;
            if (originalTo - current > 0f == output > originalTo)
            {
                output = originalTo;
                currentVelocity = (output - originalTo) / deltaTime;
            }
            return output;
        }

        /// <summary>Whether two floats are equal but for rounding: within a millionth of the larger one's size (or 8 × Epsilon near zero).</summary>
        public static bool Approximately(float a, float b)
        {
            return Abs(b - a) < Max(0.000001f * Max(Abs(a), Abs(b)), Epsilon * 8f);
        }

        /// <summary>The square root.</summary>
        public static float Sqrt(float f) { return (float)Math.Sqrt(f); }
        /// <summary><paramref name="f"/> raised to the power <paramref name="p"/>.</summary>
        public static float Pow(float f, float p) { return (float)Math.Pow(f, p); }
        /// <summary>e raised to the power <paramref name="power"/>.</summary>
        public static float Exp(float power) { return (float)Math.Exp(power); }
        /// <summary>The natural logarithm.</summary>
        public static float Log(float f) { return (float)Math.Log(f); }
        /// <summary>The logarithm of <paramref name="f"/> in base <paramref name="p"/>.</summary>
        public static float Log(float f, float p) { return (float)Math.Log(f, p); }
        /// <summary>The base-10 logarithm.</summary>
        public static float Log10(float f) { return (float)Math.Log10(f); }
        /// <summary>The sine of an angle in radians.</summary>
        public static float Sin(float f) { return (float)Math.Sin(f); }
        /// <summary>The cosine of an angle in radians.</summary>
        public static float Cos(float f) { return (float)Math.Cos(f); }
        /// <summary>The tangent of an angle in radians.</summary>
        public static float Tan(float f) { return (float)Math.Tan(f); }
        /// <summary>The angle in radians whose sine is <paramref name="f"/>.</summary>
        public static float Asin(float f) { return (float)Math.Asin(f); }
        /// <summary>The angle in radians whose cosine is <paramref name="f"/>.</summary>
        public static float Acos(float f) { return (float)Math.Acos(f); }
        /// <summary>The angle in radians whose tangent is <paramref name="f"/>.</summary>
        public static float Atan(float f) { return (float)Math.Atan(f); }
        /// <summary>The angle in radians of the point (<paramref name="x"/>, <paramref name="y"/>) from the +X axis, in [-π, π].</summary>
        public static float Atan2(float y, float x) { return (float)Math.Atan2(y, x); }

        /// <summary>The largest whole number not above <paramref name="f"/>.</summary>
        public static float Floor(float f) { return (float)Math.Floor(f); }
        /// <summary>The smallest whole number not below <paramref name="f"/>.</summary>
        public static float Ceil(float f) { return (float)Math.Ceiling(f); }
        /// <summary>The nearest whole number; a half goes to the even one (Round(2.5) is 2), as in Unity.</summary>
        public static float Round(float f) { return (float)Math.Round(f); }
        /// <summary>Floor as an int.</summary>
        public static int FloorToInt(float f) { return (int)Math.Floor(f); }
        /// <summary>Ceil as an int.</summary>
        public static int CeilToInt(float f) { return (int)Math.Ceiling(f); }
        /// <summary>Round as an int (a half goes to the even one).</summary>
        public static int RoundToInt(float f) { return (int)Math.Round(f); }

        /// <summary>Whether <paramref name="value"/> is a power of two (1, 2, 4, …).</summary>
        public static bool IsPowerOfTwo(int value) { return value > 0 && (value & (value - 1)) == 0; }
        /// <summary>The smallest power of two not below <paramref name="value"/> (0 for 0).</summary>
        public static int NextPowerOfTwo(int value)
        {
            if (value <= 0) return 0;
            value--;
            value |= value >> 1; value |= value >> 2; value |= value >> 4;
            value |= value >> 8; value |= value >> 16;
            return value + 1;
        }
        /// <summary>The power of two nearest <paramref name="value"/> (the larger one on a tie).</summary>
        public static int ClosestPowerOfTwo(int value)
        {
            if (value <= 0) return 0;
            int next = NextPowerOfTwo(value);
            int previous = next >> 1;
            return next - value <= value - previous ? next : previous;
        }
    }
}
