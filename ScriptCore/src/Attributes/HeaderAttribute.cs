using System;

namespace UEngine
{
    /// <summary>
    /// A heading shown above a field in an inspector (Unity's [Header]). Metadata only: it changes
    /// nothing in how the field is saved or carried.
    /// </summary>
    [AttributeUsage(AttributeTargets.Field, AllowMultiple = true, Inherited = true)]
    public sealed class HeaderAttribute : Attribute
    {
        /// <summary>The heading's text.</summary>
        public readonly string header;

        /// <summary>A heading with this text.</summary>
        public HeaderAttribute(string header) { this.header = header; }
    }
}
