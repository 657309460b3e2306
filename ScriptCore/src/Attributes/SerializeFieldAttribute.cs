using System;

namespace UEngine
{
    /// <summary>
    /// Marks a field (public or private) whose value the host saves, shows and restores
    /// across a hot reload. Public fields are not serialised unless marked.
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
