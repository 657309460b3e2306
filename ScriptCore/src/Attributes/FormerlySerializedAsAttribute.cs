using System;

namespace UEngine
{
    /// <summary>
    /// Tells the host that a serialised field used to have another name, so a value saved
    /// under the old name is restored into this field. May be repeated.
    /// </summary>
    [AttributeUsage(AttributeTargets.Field, AllowMultiple = true, Inherited = false)]
    public sealed class FormerlySerializedAsAttribute : Attribute
    {
        /// <summary>The name the field's value was saved under before.</summary>
        public string OldName { get; private set; }

        /// <summary>Restores a value saved under <paramref name="oldName"/> into this field.</summary>
        public FormerlySerializedAsAttribute(string oldName) { OldName = oldName; }
    }
}
