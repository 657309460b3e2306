using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;

namespace UEngine.Internal
{
    /// <summary>
    /// Proxies of native objects come from the host, which keeps one per object (held
    /// weakly), so the same native object always yields the same proxy while it is in use.
    /// </summary>
    static class ObjectTable
    {
        static readonly Dictionary<string, bool> s_KnownKinds = new Dictionary<string, bool>();

        /// <summary>The proxy of entity <paramref name="id"/>, or null for 0.</summary>
        public static UEntity Entity(ulong id)
        {
            return id == 0 ? null : (UEntity)Internal_GetProxy(id);
        }

        /// <summary>The proxy of native component <paramref name="id"/>.</summary>
        /// <summary>The managed side of any object: an entity's or component's proxy, a script's instance.</summary>
        public static UObject Object(ulong id)
        {
            return id == 0 ? null : (UObject)Internal_GetProxy(id);
        }

        public static UComponent NativeComponent(ulong id)
        {
            return id == 0 ? null : (UComponent)Internal_GetProxy(id);
        }

        /// <summary>Whether some loaded class is the proxy class of this component kind.</summary>
        public static bool HasProxyClass(string kind)
        {
            bool known;
            if (!s_KnownKinds.TryGetValue(kind, out known))
            {
                known = Internal_HasProxyClass(kind);
                s_KnownKinds.Add(kind, known);
            }
            return known;
        }

        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern object Internal_GetProxy(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern bool Internal_HasProxyClass(string kind);
    }
}
