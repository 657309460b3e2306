using System;

namespace UEngine
{
    /// <summary>
    /// Static fields are reset by every hot reload (the new code starts with its own
    /// static initialisers). A static field marked [PreserveStatic] keeps its value across
    /// reloads instead, under the same rules as [SerializeField] instance fields.
    /// </summary>
    [AttributeUsage(AttributeTargets.Field, AllowMultiple = false, Inherited = false)]
    public sealed class PreserveStaticAttribute : Attribute { }
}
