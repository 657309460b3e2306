using System;

namespace UEngine
{
    /// <summary>
    /// A serialised field that is left out of the field listings people read (<c>scriptctl get</c>
    /// without a field name); it is still saved, carried across a reload and settable by name.
    /// </summary>
    [AttributeUsage(AttributeTargets.Field, AllowMultiple = false, Inherited = true)]
    public sealed class HideInInspectorAttribute : Attribute
    {
    }
}
