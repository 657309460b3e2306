using System;

namespace UEngine
{
    /// <summary>
    /// Blank space above a field in an inspector (Unity's [Space]). Metadata only.
    /// </summary>
    [AttributeUsage(AttributeTargets.Field, AllowMultiple = true, Inherited = true)]
    public sealed class SpaceAttribute : Attribute
    {
        /// <summary>The space's height in pixels.</summary>
        public readonly float height;

        /// <summary>The default space (8 pixels).</summary>
        public SpaceAttribute() { height = 8f; }

        /// <summary>A space of <paramref name="height"/> pixels.</summary>
        public SpaceAttribute(float height) { this.height = height; }
    }
}
