using System;
using System.Collections.Generic;
using System.Globalization;
using System.Reflection;
using System.Reflection.Emit;
using System.Text;

namespace UEngine.Internal
{
    /// <summary>
    /// Says whether compiler-generated code is the same in two generations. A reload carries
    /// a running coroutine or a lambda only when the code it runs is unchanged, and two
    /// generations live in two app domains, so the comparison is of a text each side makes:
    /// the fields of the class (names and types) and the IL of its methods, with every token
    /// replaced by what it names (a field, a method with its signature, a type, a string).
    /// Tokens themselves differ between two builds of the same code whenever anything else in
    /// the assembly changed, so they are never compared. The compiler numbers its generated
    /// classes per script class ("&lt;Count&gt;c__Iterator0"), and the numbers move when an
    /// unrelated iterator or lambda is added, so the class itself is written as "&lt;self&gt;".
    /// The result is a 64-bit FNV-1a hash of that text, in hex.
    /// </summary>
    static class CodeFingerprint
    {
        static OpCode[] s_OneByte;
        static OpCode[] s_TwoByte;

        /// <summary>The fingerprint of a generated class: its fields and all its methods' code.</summary>
        internal static string OfType(Type type)
        {
            var text = new StringBuilder();
            const BindingFlags all = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public |
                                     BindingFlags.NonPublic | BindingFlags.DeclaredOnly;
            foreach (FieldInfo f in type.GetFields(all))
                text.Append("F ").Append(f.Name).Append(':').Append(TypeName(f.FieldType, type)).Append('\n');
            var methods = new List<string>();
            foreach (MethodInfo m in type.GetMethods(all)) methods.Add(MethodText(m, type));
            foreach (ConstructorInfo c in type.GetConstructors(all)) methods.Add(MethodText(c, type));
            methods.Sort(string.CompareOrdinal);
            foreach (string m in methods) text.Append(m);
            return Hash(text.ToString());
        }

        /// <summary>The fingerprint of one method: its signature and its code.</summary>
        internal static string OfMethod(MethodBase method)
        {
            return Hash(MethodText(method, method.DeclaringType));
        }

        static string MethodText(MethodBase m, Type self)
        {
            var text = new StringBuilder();
            text.Append("M ").Append(Signature(m, self)).Append('\n');
            MethodBody body = m.GetMethodBody();
            if (body == null) return text.ToString();
            text.Append("  init ").Append(body.InitLocals).Append(" stack ").Append(body.MaxStackSize).Append('\n');
            foreach (LocalVariableInfo local in body.LocalVariables)
                text.Append("  L ").Append(TypeName(local.LocalType, self)).Append('\n');
            foreach (ExceptionHandlingClause clause in body.ExceptionHandlingClauses)
            {
                text.Append("  EH ").Append(clause.Flags).Append(' ').Append(clause.TryOffset).Append('+').Append(clause.TryLength)
                    .Append(' ').Append(clause.HandlerOffset).Append('+').Append(clause.HandlerLength);
                if (clause.Flags == ExceptionHandlingClauseOptions.Clause) text.Append(' ').Append(TypeName(clause.CatchType, self));
                if (clause.Flags == ExceptionHandlingClauseOptions.Filter) text.Append(" filter ").Append(clause.FilterOffset);
                text.Append('\n');
            }
            AppendIL(text, m, body.GetILAsByteArray(), self);
            return text.ToString();
        }

        static void AppendIL(StringBuilder text, MethodBase m, byte[] il, Type self)
        {
            if (s_OneByte == null) BuildOpCodeTables();
            Module module = m.Module;
            Type[] typeArgs = m.DeclaringType != null && m.DeclaringType.IsGenericType ? m.DeclaringType.GetGenericArguments() : null;
            Type[] methodArgs = m.IsGenericMethod ? m.GetGenericArguments() : null;
            int at = 0;
            while (at < il.Length)
            {
                OpCode op;
                if (il[at] == 0xFE && at + 1 < il.Length) { op = s_TwoByte[il[at + 1]]; at += 2; }
                else { op = s_OneByte[il[at]]; at += 1; }
                text.Append("  ").Append(op.Name ?? "?");
                switch (op.OperandType)
                {
                    case OperandType.InlineNone: break;
                    case OperandType.ShortInlineBrTarget:
                    case OperandType.ShortInlineI:
                    case OperandType.ShortInlineVar:
                        text.Append(' ').Append(il[at]); at += 1; break;
                    case OperandType.InlineVar:
                        text.Append(' ').Append(BitConverter.ToUInt16(il, at)); at += 2; break;
                    case OperandType.InlineBrTarget:
                    case OperandType.InlineI:
                    case OperandType.ShortInlineR:
                        text.Append(' ').Append(BitConverter.ToInt32(il, at)); at += 4; break;
                    case OperandType.InlineI8:
                    case OperandType.InlineR:
                        text.Append(' ').Append(BitConverter.ToInt64(il, at)); at += 8; break;
                    case OperandType.InlineSwitch:
                    {
                        int n = BitConverter.ToInt32(il, at); at += 4;
                        text.Append(' ').Append(n);
                        for (int k = 0; k < n; k++) { text.Append(',').Append(BitConverter.ToInt32(il, at)); at += 4; }
                        break;
                    }
                    case OperandType.InlineString:
                        text.Append(" \"").Append(Resolve(() => module.ResolveString(BitConverter.ToInt32(il, at)))).Append('"'); at += 4; break;
                    case OperandType.InlineSig:
                        text.Append(" sig ").Append(Resolve(() => Convert.ToBase64String(module.ResolveSignature(BitConverter.ToInt32(il, at))))); at += 4; break;
                    default: // InlineField, InlineMethod, InlineType, InlineTok
                    {
                        int token = BitConverter.ToInt32(il, at); at += 4;
                        text.Append(' ').Append(Resolve(() => MemberName(module.ResolveMember(token, typeArgs, methodArgs), self)));
                        break;
                    }
                }
                text.Append('\n');
            }
        }

        static string Resolve(Func<string> resolve)
        {
            // A token that cannot be resolved makes the code compare unequal to anything, which
            // is the safe answer: the coroutine or lambda is then restarted or dropped, never run
            // on the wrong code.
            try { return resolve(); }
            catch (Exception e) { return "unresolved:" + e.GetType().Name + ":" + Guid.NewGuid().ToString("N"); }
        }

        static string MemberName(MemberInfo member, Type self)
        {
            var type = member as Type;
            if (type != null) return TypeName(type, self);
            var field = member as FieldInfo;
            if (field != null) return TypeName(field.DeclaringType, self) + "::" + field.Name + ":" + TypeName(field.FieldType, self);
            var method = member as MethodBase;
            if (method != null) return Signature(method, self);
            return member.ToString();
        }

        internal static string Signature(MethodBase m, Type self)
        {
            var text = new StringBuilder();
            text.Append(TypeName(m.DeclaringType, self)).Append("::").Append(m.Name);
            if (m.IsGenericMethod)
            {
                text.Append('[');
                foreach (Type arg in m.GetGenericArguments()) text.Append(TypeName(arg, self)).Append(',');
                text.Append(']');
            }
            text.Append('(');
            foreach (ParameterInfo p in m.GetParameters()) text.Append(TypeName(p.ParameterType, self)).Append(',');
            text.Append(')');
            var info = m as MethodInfo;
            if (info != null) text.Append(':').Append(TypeName(info.ReturnType, self));
            return text.ToString();
        }

        internal static string TypeName(Type t, Type self)
        {
            if (t == null) return "null";
            if (t == self) return "<self>";
            if (t.IsGenericType && !t.IsGenericTypeDefinition)
            {
                var text = new StringBuilder(TypeName(t.GetGenericTypeDefinition(), self)).Append('[');
                foreach (Type arg in t.GetGenericArguments()) text.Append(TypeName(arg, self)).Append(',');
                return text.Append(']').ToString();
            }
            if (t.HasElementType)
            {
                string element = TypeName(t.GetElementType(), self);
                if (t.IsArray) return element + "[" + new string(',', t.GetArrayRank() - 1) + "]";
                return element + (t.IsByRef ? "&" : "*");
            }
            return t.FullName ?? t.Name;
        }

        static void BuildOpCodeTables()
        {
            var one = new OpCode[256];
            var two = new OpCode[256];
            foreach (FieldInfo f in typeof(OpCodes).GetFields(BindingFlags.Public | BindingFlags.Static))
            {
                var op = (OpCode)f.GetValue(null);
                if (op.Size == 1) one[op.Value & 0xFF] = op;
                else two[op.Value & 0xFF] = op;
            }
            s_TwoByte = two;
            s_OneByte = one;
        }

        static string Hash(string text)
        {
            ulong hash = 14695981039346656037UL;
            foreach (char c in text)
            {
                hash ^= c;
                hash *= 1099511628211UL;
            }
            return hash.ToString("x16", CultureInfo.InvariantCulture);
        }
    }
}
