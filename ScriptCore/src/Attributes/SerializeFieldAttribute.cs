using System;

namespace UEngine
{
    /// <summary>
    /// Marks a private or protected field whose value the host saves, shows and restores
    /// across a hot reload, as public fields are by default (Unity's rule: public instance
    /// fields of a serialisable type, not readonly and not <see cref="NonSerializedAttribute"/>).
    /// Also gives a field a display name.
    /// </summary>
    [AttributeUsage(AttributeTargets.Field, AllowMultiple = false, Inherited = true)]
    public sealed class SerializeFieldAttribute : Attribute
    {
        /// <summary>The name shown to people instead of the field name, or null.</summary>
        public string DisplayName { get; private set; }

        /// <summary>Serialises the field under its own name.</summary>
        public SerializeFieldAttribute() { }
        /// <summary>Serialises the field and shows it as <paramref name="displayName"/> (in scriptctl, for instance).</summary>
        public SerializeFieldAttribute(string displayName) { DisplayName = displayName; }
    }
}
