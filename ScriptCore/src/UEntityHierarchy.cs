using System;
using System.Collections.Generic;
using UEngine.Internal;

namespace UEngine
{
    /// <summary>
    /// Components found across the hierarchy (Unity's GetComponents, GetComponent(s)InChildren,
    /// GetComponent(s)InParent). Entities inactive in the hierarchy are skipped unless
    /// includeInactive is true, as in Unity; a component's order is the entity's (its scripts,
    /// native scripts or native components in the order added), entities depth first.
    /// </summary>
    public sealed partial class UEntity
    {
        /// <summary>Every component of type T on this entity, in the order added.</summary>
        public T[] GetComponents<T>() where T : UComponent
        {
            var found = new List<T>();
            CollectComponents(typeof(T), found);
            return found.ToArray();
        }

        /// <summary>The first component of type T on this entity or below it, depth first, or null.</summary>
        public T GetComponentInChildren<T>() where T : UComponent { return GetComponentInChildren<T>(false); }

        /// <summary>GetComponentInChildren, inactive entities searched too when <paramref name="includeInactive"/>.</summary>
        public T GetComponentInChildren<T>(bool includeInactive) where T : UComponent
        {
            foreach (ulong id in UTransform.Internal_GetSubtree(m_NativeId))
            {
                UEntity e = ObjectTable.Entity(id);
                if (!includeInactive && !e.activeInHierarchy) continue;
                T component = (T)e.GetComponent(typeof(T));
                if (!ReferenceEquals(component, null)) return component;
            }
            return null;
        }

        /// <summary>Every component of type T on this entity and below it, depth first.</summary>
        public T[] GetComponentsInChildren<T>() where T : UComponent { return GetComponentsInChildren<T>(false); }

        /// <summary>GetComponentsInChildren, inactive entities searched too when <paramref name="includeInactive"/>.</summary>
        public T[] GetComponentsInChildren<T>(bool includeInactive) where T : UComponent
        {
            var found = new List<T>();
            foreach (ulong id in UTransform.Internal_GetSubtree(m_NativeId))
            {
                UEntity e = ObjectTable.Entity(id);
                if (includeInactive || e.activeInHierarchy) e.CollectComponents(typeof(T), found);
            }
            return found.ToArray();
        }

        /// <summary>The first component of type T on this entity or one of its parents, nearest first, or null.</summary>
        public T GetComponentInParent<T>() where T : UComponent { return GetComponentInParent<T>(false); }

        /// <summary>GetComponentInParent, inactive entities searched too when <paramref name="includeInactive"/>.</summary>
        public T GetComponentInParent<T>(bool includeInactive) where T : UComponent
        {
            for (UTransform t = transform; t != null; t = t.parent)
            {
                UEntity e = t.gameObject;
                if (!includeInactive && !e.activeInHierarchy) continue;
                T component = (T)e.GetComponent(typeof(T));
                if (!ReferenceEquals(component, null)) return component;
            }
            return null;
        }

        /// <summary>Every component of type T on this entity and its parents, nearest first.</summary>
        public T[] GetComponentsInParent<T>() where T : UComponent { return GetComponentsInParent<T>(false); }

        /// <summary>GetComponentsInParent, inactive entities searched too when <paramref name="includeInactive"/>.</summary>
        public T[] GetComponentsInParent<T>(bool includeInactive) where T : UComponent
        {
            var found = new List<T>();
            for (UTransform t = transform; t != null; t = t.parent)
            {
                UEntity e = t.gameObject;
                if (includeInactive || e.activeInHierarchy) e.CollectComponents(typeof(T), found);
            }
            return found.ToArray();
        }

        // Every component of `type` on this entity, as GetComponent finds the first.
        void CollectComponents<T>(Type type, List<T> into) where T : UComponent
        {
            CheckComponentType(type);
            if (typeof(UMonoScriptComponent).IsAssignableFrom(type))
            {
                foreach (UMonoScriptComponent s in ScriptRuntime.ScriptsOn(m_NativeId))
                    if (!s.m_Detached && type.IsInstanceOfType(s)) into.Add((T)(UComponent)s);
                return;
            }
            if (typeof(UNativeScript).IsAssignableFrom(type))
            {
                int scripts = Internal_GetNativeScriptCount(m_NativeId);
                for (int i = 0; i < scripts; i++)
                {
                    UComponent proxy = ObjectTable.NativeComponent(Internal_GetNativeScriptAt(m_NativeId, i));
                    if (proxy != null && type.IsInstanceOfType(proxy)) into.Add((T)proxy);
                }
                return;
            }
            int count = Internal_GetComponentCount(m_NativeId);
            for (int i = 0; i < count; i++)
            {
                string kind;
                ulong componentId = Internal_GetComponentAt(m_NativeId, i, out kind);
                if (!ObjectTable.HasProxyClass(kind)) continue;
                UComponent proxy = ObjectTable.NativeComponent(componentId);
                if (proxy != null && type.IsInstanceOfType(proxy)) into.Add((T)proxy);
            }
        }
    }
}
