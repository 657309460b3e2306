using System;

namespace UEngine
{
    /// <summary>
    /// A field's explanation for an inspector (Unity's [Tooltip]). Metadata only: it changes
    /// nothing in how the field is saved or carried.
    /// </summary>
    [AttributeUsage(AttributeTargets.Field, AllowMultiple = false, Inherited = true)]
    public sealed class TooltipAttribute : Attribute
    {
        /// <summary>The explanation.</summary>
        public readonly string tooltip;

        /// <summary>A tooltip with this text.</summary>
        public TooltipAttribute(string tooltip) { this.tooltip = tooltip; }
    }
}
