using System;
using System.Runtime.CompilerServices;

namespace UEngine
{
    /// <summary>Named input actions ("MoveForward", "Turn", …) as analogue values.</summary>
    public static class UInputSystem
    {
        /// <summary>The action's current value: 0 when idle or unknown, usually in [-1, 1].</summary>
        public static float GetActionState(string action)
        {
            if (action == null) throw new ArgumentNullException("action");
            return Internal_GetActionState(action);
        }

        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern float Internal_GetActionState(string action);
    }
}
