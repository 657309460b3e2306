using System;
using System.Runtime.CompilerServices;
using UEngine.Internal;

namespace UEngine
{
    /// <summary>
    /// Base of the proxy of a native script: a script class a game module writes in C++. The
    /// host generates one proxy class per native class (same full name, in the scripts build),
    /// with the native fields as properties and the native methods as methods, so scripts use
    /// a native script with compile-time types: <c>GetComponent&lt;Demo.NativeSpinner&gt;().speed = 3</c>,
    /// <c>AddComponent&lt;Demo.NativeSpinner&gt;()</c>. A C# abstract class deriving from
    /// UNativeScript can be implemented by a native class. Using a proxy whose native script
    /// has been destroyed throws <see cref="MissingReferenceException"/>.
    /// </summary>
    public abstract class UNativeScript : UComponent
    {
        /// <summary>Proxies are made by the host.</summary>
        protected UNativeScript() { }

        /// <summary>The entity proxy of an id a native field holds (null for 0).</summary>
        protected static UEntity EntityOf(ulong id) { return ObjectTable.Entity(id); }

        /// <summary>The id of an entity proxy (0 for null).</summary>
        protected static ulong IdOf(UEntity entity) { return ReferenceEquals(entity, null) ? 0UL : entity.m_NativeId; }

        // Field access for the generated proxies: the field's index in the native class and its
        // name (checked by the host, so a proxy of another build of the class cannot mix fields).
        // Not documented one by one: only generated code calls them.
#pragma warning disable 1591
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern bool Internal_GetBool(ulong id, int field, string name);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_SetBool(ulong id, int field, string name, bool value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern int Internal_GetInt(ulong id, int field, string name);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_SetInt(ulong id, int field, string name, int value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern long Internal_GetLong(ulong id, int field, string name);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_SetLong(ulong id, int field, string name, long value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern float Internal_GetFloat(ulong id, int field, string name);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_SetFloat(ulong id, int field, string name, float value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern double Internal_GetDouble(ulong id, int field, string name);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_SetDouble(ulong id, int field, string name, double value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern string Internal_GetString(ulong id, int field, string name);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_SetString(ulong id, int field, string name, string value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_GetVector2(ulong id, int field, string name, out Vector2 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_SetVector2(ulong id, int field, string name, ref Vector2 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_GetVector3(ulong id, int field, string name, out Vector3 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_SetVector3(ulong id, int field, string name, ref Vector3 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_GetVector4(ulong id, int field, string name, out Vector4 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_SetVector4(ulong id, int field, string name, ref Vector4 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_GetQuaternion(ulong id, int field, string name, out Quaternion value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_SetQuaternion(ulong id, int field, string name, ref Quaternion value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern ulong Internal_GetEntity(ulong id, int field, string name);
        [MethodImpl(MethodImplOptions.InternalCall)]
        protected static extern void Internal_SetEntity(ulong id, int field, string name, ulong value);
#pragma warning restore 1591
    }
}
