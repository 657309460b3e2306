using System;
using System.Collections.Generic;
using System.Reflection;

namespace UEngine.Internal
{
    /// <summary>
    /// This generation's proxies of native objects, keyed by native id, so the same native
    /// object always yields the same proxy (reference equality holds in scripts). The table
    /// lives in the app domain and so is rebuilt, empty, by every reload.
    /// </summary>
    static class ObjectTable
    {
        static readonly Dictionary<ulong, UEntity> s_Entities = new Dictionary<ulong, UEntity>();
        static readonly Dictionary<ulong, UComponent> s_Components = new Dictionary<ulong, UComponent>();
        static Dictionary<string, Type> s_ComponentTypes;

        /// <summary>The proxy of entity <paramref name="id"/>, or null for 0.</summary>
        public static UEntity Entity(ulong id)
        {
            if (id == 0) return null;
            UEntity entity;
            if (!s_Entities.TryGetValue(id, out entity))
            {
                entity = new UEntity(id);
                s_Entities.Add(id, entity);
            }
            return entity;
        }

        /// <summary>
        /// The proxy of native component <paramref name="id"/> of kind <paramref name="kind"/>,
        /// or null when no managed class is bound to that kind.
        /// </summary>
        public static UComponent NativeComponent(ulong id, ulong entityId, string kind)
        {
            UComponent component;
            if (s_Components.TryGetValue(id, out component))
                return component;
            Type type = ComponentType(kind);
            if (type == null)
                return null;
            component = (UComponent)Activator.CreateInstance(type, true);
            component.m_NativeId = id;
            component.m_EntityId = entityId;
            s_Components.Add(id, component);
            return component;
        }

        /// <summary>Drops the proxies of a destroyed native object.</summary>
        public static void Forget(ulong id)
        {
            s_Entities.Remove(id);
            s_Components.Remove(id);
        }

        static Type ComponentType(string kind)
        {
            Type type;
            if (s_ComponentTypes == null || !s_ComponentTypes.TryGetValue(kind, out type))
            {
                // Game modules may load assemblies with more kinds later: rescan on a miss.
                ScanComponentTypes();
                s_ComponentTypes.TryGetValue(kind, out type);
            }
            return type;
        }

        static void ScanComponentTypes()
        {
            s_ComponentTypes = new Dictionary<string, Type>();
            foreach (Assembly assembly in AppDomain.CurrentDomain.GetAssemblies())
            {
                Type[] types;
                try { types = assembly.GetTypes(); }
                catch (ReflectionTypeLoadException e) { types = e.Types; }
                foreach (Type t in types)
                {
                    if (t == null || !typeof(UComponent).IsAssignableFrom(t)) continue;
                    var attr = (NativeComponentAttribute)Attribute.GetCustomAttribute(t, typeof(NativeComponentAttribute), false);
                    if (attr != null) s_ComponentTypes[attr.Kind] = t;
                }
            }
        }
    }
}
