using System;
using System.Collections;
using System.Runtime.CompilerServices;
using UEngine.Internal;

namespace UEngine
{
    /// <summary>
    /// The hierarchy of transforms, as in Unity: a child's local position, rotation and scale
    /// are relative to its parent's, it moves with its parent, it is active only while its
    /// parents are (UEntity.activeInHierarchy), and it is destroyed with its parent.
    /// <c>foreach (UTransform child in transform)</c> visits the children in sibling order.
    /// </summary>
    public sealed partial class UTransform : IEnumerable
    {
        /// <summary>
        /// The parent's transform, or null for a root. Setting it keeps the world position,
        /// rotation and scale (<see cref="SetParent(UTransform, bool)"/> with true).
        /// </summary>
        public UTransform parent
        {
            get
            {
                ulong id = Internal_GetParent(m_EntityId);
                return id == 0 ? null : ObjectTable.Entity(id).transform;
            }
            set { SetParent(value, true); }
        }

        /// <summary>Makes this transform a child of <paramref name="parent"/> (null: a root), keeping its place in the world.</summary>
        public void SetParent(UTransform parent) { SetParent(parent, true); }

        /// <summary>
        /// Makes this transform the last child of <paramref name="parent"/> (null: a root).
        /// <paramref name="worldPositionStays"/>: it keeps its world position, rotation and
        /// scale (its local ones change); false: it keeps its local ones and moves with the
        /// new parent. A parent that is this transform or lies below it throws
        /// ArgumentException. Scripts whose entity becomes active or inactive in the hierarchy
        /// get OnEnable or OnDisable.
        /// </summary>
        public void SetParent(UTransform parent, bool worldPositionStays)
        {
            bool active;
            ulong[] changed = Internal_SetParent(m_EntityId, parent == null ? 0 : parent.m_EntityId, worldPositionStays, out active);
            foreach (ulong entity in changed) ScriptActivation.EntityActiveChanged(entity, active);
        }

        /// <summary>The topmost transform above this one (this one for a root).</summary>
        public UTransform root
        {
            get
            {
                UTransform t = this;
                for (UTransform p = t.parent; p != null; p = p.parent) t = p;
                return t;
            }
        }

        /// <summary>How many children this transform has.</summary>
        public int childCount { get { return Internal_GetChildCount(m_EntityId); } }

        /// <summary>The child at <paramref name="index"/> in sibling order; throws ArgumentOutOfRangeException past the last.</summary>
        public UTransform GetChild(int index)
        {
            ulong id = Internal_GetChild(m_EntityId, index);
            if (id == 0) throw new ArgumentOutOfRangeException("index", index, "Transform child out of bounds");
            return ObjectTable.Entity(id).transform;
        }

        /// <summary>
        /// The child named <paramref name="name"/>, or null. A path ("Arm/Hand") descends one
        /// level per name, as in Unity.
        /// </summary>
        public UTransform Find(string name)
        {
            if (name == null) throw new ArgumentNullException("name");
            UTransform at = this;
            foreach (string part in name.Split('/'))
            {
                UTransform found = null;
                int count = at.childCount;
                for (int i = 0; i < count && found == null; i++)
                {
                    UTransform child = at.GetChild(i);
                    if (child.name == part) found = child;
                }
                if (found == null) return null;
                at = found;
            }
            return at;
        }

        /// <summary>Whether this transform is <paramref name="parent"/> or lies below it.</summary>
        public bool IsChildOf(UTransform parent)
        {
            if (parent == null) throw new ArgumentNullException("parent");
            for (UTransform t = this; t != null; t = t.parent)
                if (t.m_EntityId == parent.m_EntityId) return true;
            return false;
        }

        /// <summary>Makes every child a root, each keeping its place in the world.</summary>
        public void DetachChildren()
        {
            for (int i = childCount - 1; i >= 0; i--) GetChild(i).SetParent(null, true);
        }

        /// <summary>The index of this transform among its parent's children (0 for a root).</summary>
        public int GetSiblingIndex() { return Internal_GetSiblingIndex(m_EntityId); }
        /// <summary>Moves this transform to <paramref name="index"/> among its siblings (past the end: the last). No effect on a root.</summary>
        public void SetSiblingIndex(int index) { Internal_SetSiblingIndex(m_EntityId, index); }
        /// <summary>Moves this transform first among its siblings.</summary>
        public void SetAsFirstSibling() { SetSiblingIndex(0); }
        /// <summary>Moves this transform last among its siblings.</summary>
        public void SetAsLastSibling() { SetSiblingIndex(int.MaxValue); }

        /// <summary>The children in sibling order (a copy: the loop may reparent them).</summary>
        public IEnumerator GetEnumerator()
        {
            int count = childCount;
            var children = new UTransform[count];
            for (int i = 0; i < count; i++) children[i] = GetChild(i);
            return children.GetEnumerator();
        }

        /// <summary>The first component of type T on this entity or below it (active entities only), or null.</summary>
        public T GetComponentInChildren<T>() where T : UComponent { return gameObject.GetComponentInChildren<T>(); }
        /// <summary>Every component of type T on this entity and below it (active entities only).</summary>
        public T[] GetComponentsInChildren<T>() where T : UComponent { return gameObject.GetComponentsInChildren<T>(); }
        /// <summary>The first component of type T on this entity or above it, or null.</summary>
        public T GetComponentInParent<T>() where T : UComponent { return gameObject.GetComponentInParent<T>(); }
        /// <summary>Every component of type T on this entity and above it.</summary>
        public T[] GetComponentsInParent<T>() where T : UComponent { return gameObject.GetComponentsInParent<T>(); }

        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern ulong Internal_GetParent(ulong entity);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern ulong[] Internal_SetParent(ulong entity, ulong parent, bool keepWorld, out bool nowActive);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern int Internal_GetChildCount(ulong entity);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern ulong Internal_GetChild(ulong entity, int index);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern int Internal_GetSiblingIndex(ulong entity);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_SetSiblingIndex(ulong entity, int index);
        [MethodImpl(MethodImplOptions.InternalCall)]
        internal static extern ulong[] Internal_GetSubtree(ulong entity);
    }
}
