using System;

namespace UEngine
{
    /// <summary>
    /// Components a script needs on its entity (Unity's [RequireComponent]): when
    /// <see cref="UEntity.AddComponent(Type)"/> adds the script, it first adds each required one
    /// the entity lacks. A scene file lists an entity's components itself.
    /// </summary>
    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true, Inherited = true)]
    public sealed class RequireComponentAttribute : Attribute
    {
        /// <summary>The first required type.</summary>
        public readonly Type m_Type0;
        /// <summary>The second required type, or null.</summary>
        public readonly Type m_Type1;
        /// <summary>The third required type, or null.</summary>
        public readonly Type m_Type2;

        /// <summary>Requires one component type.</summary>
        public RequireComponentAttribute(Type requiredComponent) { m_Type0 = requiredComponent; }

        /// <summary>Requires two component types.</summary>
        public RequireComponentAttribute(Type requiredComponent, Type requiredComponent2)
        {
            m_Type0 = requiredComponent;
            m_Type1 = requiredComponent2;
        }

        /// <summary>Requires three component types.</summary>
        public RequireComponentAttribute(Type requiredComponent, Type requiredComponent2, Type requiredComponent3)
        {
            m_Type0 = requiredComponent;
            m_Type1 = requiredComponent2;
            m_Type2 = requiredComponent3;
        }
    }
}
