using System;
using System.Collections;
using System.Collections.Generic;
using System.Reflection;
using System.Runtime.ExceptionServices;

namespace UEngine.Internal
{
    /// <summary>
    /// The Unity message methods one script class declares (Awake, Start, Update(), ...):
    /// found by reflection once per class and generation, and only for the classes whose
    /// metadata the host found them in, so a class without them costs no reflection.
    /// </summary>
    sealed class MessageMethods
    {
        // Bits shared with the host (host/model/unity_message.hpp, UnityMessage).
        internal const int Awake = 1 << 2;
        internal const int Start = 1 << 3;
        internal const int Update = 1 << 4;
        internal const int FixedUpdate = 1 << 5;
        internal const int LateUpdate = 1 << 6;
        internal const int OnEnable = 1 << 7;
        internal const int OnDisable = 1 << 8;
        internal const int OnDestroy = 1 << 9;
        internal const int Any = Awake | Start | Update | FixedUpdate | LateUpdate | OnEnable | OnDisable | OnDestroy;

        static readonly string[] s_Names = { null, null, "Awake", "Start", "Update", "FixedUpdate", "LateUpdate", "OnEnable", "OnDisable", "OnDestroy" };
        const BindingFlags kDeclared = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly;

        // Keyed by Type, valued by object: class library types only, so the map's code is shared across domains.
        static readonly Dictionary<Type, object> s_ByClass = new Dictionary<Type, object>();

        readonly MethodInfo[] m_Methods = new MethodInfo[s_Names.Length];

        /// <summary>The message methods of <paramref name="type"/>, found on first use.</summary>
        internal static MessageMethods Of(Type type)
        {
            object found;
            if (s_ByClass.TryGetValue(type, out found)) return (MessageMethods)found;
            var methods = new MessageMethods();
            for (int bit = 2; bit < s_Names.Length; bit++)
                methods.m_Methods[bit] = Find(type, s_Names[bit]);
            s_ByClass.Add(type, methods);
            return methods;
        }

        // The most derived declaration: a private method of a base class counts too, as in Unity.
        static MethodInfo Find(Type type, string name)
        {
            for (Type t = type; t != null && t != typeof(UMonoScriptComponent); t = t.BaseType)
            {
                MethodInfo m = t.GetMethod(name, kDeclared, null, Type.EmptyTypes, null);
                if (m != null && !m.IsGenericMethodDefinition) return m;
            }
            return null;
        }

        static int BitNumber(int message)
        {
            int n = 0;
            while ((message >> n) != 1) n++;
            return n;
        }

        /// <summary>
        /// A delegate that calls <paramref name="message"/> on <paramref name="script"/>, or null
        /// when its class does not declare it. The per-frame messages are called through these.
        /// </summary>
        internal Action Bind(UMonoScriptComponent script, int message)
        {
            MethodInfo m = m_Methods[BitNumber(message)];
            if (m == null) return null;
            if (m.ReturnType == typeof(void))
                return (Action)Delegate.CreateDelegate(typeof(Action), script, m);
            return () => Invoke(script, m);
        }

        /// <summary>
        /// Calls <paramref name="message"/> on <paramref name="script"/> once; a Start that returns
        /// an <see cref="IEnumerator"/> runs as the script's coroutine, as in Unity.
        /// Exceptions propagate to the caller, which charges them to the script.
        /// </summary>
        internal void Call(UMonoScriptComponent script, int message)
        {
            MethodInfo m = m_Methods[BitNumber(message)];
            if (m == null) return;
            if (m.ReturnType == typeof(void))
            {
                ((Action)Delegate.CreateDelegate(typeof(Action), script, m))();
                return;
            }
            if (m.ReturnType == typeof(IEnumerator))
            {
                IEnumerator routine = ((Func<IEnumerator>)Delegate.CreateDelegate(typeof(Func<IEnumerator>), script, m))();
                if (routine != null && message == Start) script.StartCoroutine(routine);
                return;
            }
            Invoke(script, m);
        }

        // A message that returns something else (Unity ignores what it returns): called by
        // reflection, with the script's own exception rethrown as it was.
        static void Invoke(UMonoScriptComponent script, MethodInfo m)
        {
            try { m.Invoke(script, null); }
            catch (TargetInvocationException e) { ExceptionDispatchInfo.Capture(e.InnerException ?? e).Throw(); }
        }
    }
}
