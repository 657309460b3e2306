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
        public string OldName { get; private set; }

        public FormerlySerializedAsAttribute(string oldName) { OldName = oldName; }
    }
}
