using System;

namespace UEngine
{
    /// <summary>
    /// A string field an inspector edits as several lines (Unity's [TextArea]). Metadata only.
    /// </summary>
    [AttributeUsage(AttributeTargets.Field, AllowMultiple = false, Inherited = true)]
    public sealed class TextAreaAttribute : Attribute
    {
        /// <summary>The fewest lines shown.</summary>
        public readonly int minLines;
        /// <summary>The most lines shown before scrolling.</summary>
        public readonly int maxLines;

        /// <summary>Three to three lines, Unity's default.</summary>
        public TextAreaAttribute() { minLines = 3; maxLines = 3; }

        /// <summary>From <paramref name="minLines"/> to <paramref name="maxLines"/> lines.</summary>
        public TextAreaAttribute(int minLines, int maxLines) { this.minLines = minLines; this.maxLines = maxLines; }
    }
}
