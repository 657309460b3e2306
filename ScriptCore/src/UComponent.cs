using System;

namespace UEngine
{
    /// <summary>Something attached to an entity: a native component or a script.</summary>
    public abstract class UComponent : UObject
    {
        internal ulong m_EntityId;
        UEntity m_Entity;

        /// <summary>The entity this component is attached to.</summary>
        public UEntity gameObject
        {
            get { return m_Entity ?? (m_Entity = Internal.ObjectTable.Entity(m_EntityId)); }
        }

        /// <summary>The transform of the entity this component is attached to.</summary>
        public UTransform transform { get { return gameObject.transform; } }

        /// <summary>The name of the entity this component is attached to.</summary>
        public string name { get { return gameObject.name; } set { gameObject.name = value; } }

        /// <summary>The tag of the entity this component is attached to.</summary>
        public string tag { get { return gameObject.tag; } set { gameObject.tag = value; } }

        /// <summary>Whether the tag of this component's entity is <paramref name="tag"/>.</summary>
        public bool CompareTag(string tag) { return gameObject.CompareTag(tag); }

        /// <summary>The first component of type T on this component's entity (this one included), or null.</summary>
        public T GetComponent<T>() where T : UComponent { return gameObject.GetComponent<T>(); }

        /// <summary>The first component of <paramref name="type"/> on this component's entity, or null.</summary>
        public UComponent GetComponent(Type type) { return gameObject.GetComponent(type); }

        /// <summary>Every component of type T on this component's entity.</summary>
        public T[] GetComponents<T>() where T : UComponent { return gameObject.GetComponents<T>(); }
        /// <summary>The first component of type T on this entity or below it (active entities only), or null.</summary>
        public T GetComponentInChildren<T>() where T : UComponent { return gameObject.GetComponentInChildren<T>(); }
        /// <summary>GetComponentInChildren, inactive entities searched too when <paramref name="includeInactive"/>.</summary>
        public T GetComponentInChildren<T>(bool includeInactive) where T : UComponent { return gameObject.GetComponentInChildren<T>(includeInactive); }
        /// <summary>Every component of type T on this entity and below it (active entities only).</summary>
        public T[] GetComponentsInChildren<T>() where T : UComponent { return gameObject.GetComponentsInChildren<T>(); }
        /// <summary>GetComponentsInChildren, inactive entities searched too when <paramref name="includeInactive"/>.</summary>
        public T[] GetComponentsInChildren<T>(bool includeInactive) where T : UComponent { return gameObject.GetComponentsInChildren<T>(includeInactive); }
        /// <summary>The first component of type T on this entity or one of its parents, or null.</summary>
        public T GetComponentInParent<T>() where T : UComponent { return gameObject.GetComponentInParent<T>(); }
        /// <summary>Every component of type T on this entity and its parents, nearest first.</summary>
        public T[] GetComponentsInParent<T>() where T : UComponent { return gameObject.GetComponentsInParent<T>(); }
    }
}
