using System;

namespace UEngine
{
    /// <summary>
    /// The range an inspector offers for a number field (Unity's [Range]): a slider from
    /// <see cref="min"/> to <see cref="max"/>. Like Unity, it does not clamp what a script or a
    /// scene sets.
    /// </summary>
    [AttributeUsage(AttributeTargets.Field, AllowMultiple = false, Inherited = true)]
    public sealed class RangeAttribute : Attribute
    {
        /// <summary>The slider's lower end.</summary>
        public readonly float min;
        /// <summary>The slider's upper end.</summary>
        public readonly float max;

        /// <summary>A slider from <paramref name="min"/> to <paramref name="max"/>.</summary>
        public RangeAttribute(float min, float max) { this.min = min; this.max = max; }
    }
}
