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
    }
}
