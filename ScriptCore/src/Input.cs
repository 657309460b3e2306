using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;

namespace UEngine
{
    /// <summary>
    /// Unity's Input: keys, buttons and axes, read from the host's input actions (the values
    /// <see cref="UInputSystem.GetActionState"/> reads). A key is the action <c>"key:" + its
    /// KeyCode name</c> (<c>"key:Space"</c>, <c>"key:W"</c>, <c>"key:UpArrow"</c>); the terminal
    /// holds it while the key is pressed, and input replays and <c>scriptctl input</c> set it like
    /// any action. A button or an axis is the action of that name when something has set it (a
    /// game module's key binding, a replay, the control socket), else Unity's default keys:
    /// Horizontal is D or RightArrow minus A or LeftArrow, Vertical W or UpArrow minus S or
    /// DownArrow, Jump is Space, Fire1 LeftControl, Fire2 LeftAlt, Fire3 LeftShift, Submit
    /// Return, Cancel Escape. Down and Up compare with the previous frame's value.
    /// </summary>
    public static class Input
    {
        // Unity's defaults for a keyboard axis, in units per second.
        const float Sensitivity = 3f;
        const float Gravity = 3f;

        struct Smoothed
        {
            public float value;
            public long frame;
        }

        static readonly Dictionary<string, Smoothed> s_Axes = new Dictionary<string, Smoothed>();
        // The host's number for each action asked about (+1; 0: not asked yet): keys by KeyCode,
        // buttons and axes by name. Numbers live as long as the process; a reload asks again.
        static readonly int[] s_KeyHandles = new int[(int)KeyCode.Mouse2 + 1];
        static readonly Dictionary<string, int> s_NamedHandles = new Dictionary<string, int>();

        /// <summary>Whether <paramref name="key"/> is held.</summary>
        public static bool GetKey(KeyCode key) { float previous; return Key(key, out previous) != 0f; }

        /// <summary>Whether <paramref name="key"/> went down this frame.</summary>
        public static bool GetKeyDown(KeyCode key) { float previous; return Key(key, out previous) != 0f && previous == 0f; }

        /// <summary>Whether <paramref name="key"/> was released this frame.</summary>
        public static bool GetKeyUp(KeyCode key) { float previous; return Key(key, out previous) == 0f && previous != 0f; }

        /// <summary>Whether the key Unity names <paramref name="name"/> ("space", "a", "up", "left shift", …) is held.</summary>
        public static bool GetKey(string name) { return GetKey(KeyNamed(name)); }

        /// <summary>Whether the key named <paramref name="name"/> went down this frame.</summary>
        public static bool GetKeyDown(string name) { return GetKeyDown(KeyNamed(name)); }

        /// <summary>Whether the key named <paramref name="name"/> was released this frame.</summary>
        public static bool GetKeyUp(string name) { return GetKeyUp(KeyNamed(name)); }

        /// <summary>Whether the button (an action, or Unity's default key for it) is held.</summary>
        public static bool GetButton(string buttonName) { float previous; return Button(buttonName, out previous) != 0f; }

        /// <summary>Whether the button went down this frame.</summary>
        public static bool GetButtonDown(string buttonName) { float previous; return Button(buttonName, out previous) != 0f && previous == 0f; }

        /// <summary>Whether the button was released this frame.</summary>
        public static bool GetButtonUp(string buttonName) { float previous; return Button(buttonName, out previous) == 0f && previous != 0f; }

        /// <summary>The axis's value as it is: the action's, or -1, 0 or 1 from its default keys.</summary>
        public static float GetAxisRaw(string axisName)
        {
            if (axisName == null) throw new ArgumentNullException("axisName");
            float previous;
            bool known;
            float value = Read(axisName, out previous, out known);
            if (known) return value;
            switch (axisName)
            {
                case "Horizontal": return Either(KeyCode.D, KeyCode.RightArrow) - Either(KeyCode.A, KeyCode.LeftArrow);
                case "Vertical": return Either(KeyCode.W, KeyCode.UpArrow) - Either(KeyCode.S, KeyCode.DownArrow);
                default: return Button(axisName, out previous);
            }
        }

        /// <summary>
        /// The axis's value smoothed as Unity smooths a keyboard axis: it moves toward
        /// <see cref="GetAxisRaw"/> at 3 units a second, back to 0 at 3 a second when released,
        /// and snaps to 0 when the input turns to the other side. Every call in a frame gives the
        /// same value. A reload starts the smoothing again from 0.
        /// </summary>
        public static float GetAxis(string axisName)
        {
            float raw = GetAxisRaw(axisName);
            Smoothed s;
            bool seen = s_Axes.TryGetValue(axisName, out s);
            long frame = Time.frameCount;
            if (seen && s.frame == frame) return s.value;
            float step = Time.deltaTime * (seen ? Math.Max(1L, frame - s.frame) : 1L);
            if (raw != 0f)
            {
                if (s.value != 0f && Math.Sign(raw) != Math.Sign(s.value)) s.value = 0f;
                s.value = Mathf.MoveTowards(s.value, raw, Sensitivity * step);
            }
            else
            {
                s.value = Mathf.MoveTowards(s.value, 0f, Gravity * step);
            }
            s.frame = frame;
            s_Axes[axisName] = s;
            return s.value;
        }

        static float Key(KeyCode key, out float previous)
        {
            int index = (int)key;
            if (index < 0 || index >= s_KeyHandles.Length) throw new ArgumentException("no such KeyCode: " + index, "key");
            int handle = s_KeyHandles[index];
            if (handle == 0) s_KeyHandles[index] = handle = Internal_Handle("key:" + key) + 1;
            bool known;
            return Internal_Read(handle - 1, out previous, out known);
        }

        static float Read(string action, out float previous, out bool known)
        {
            int handle;
            if (!s_NamedHandles.TryGetValue(action, out handle))
                s_NamedHandles.Add(action, handle = Internal_Handle(action));
            return Internal_Read(handle, out previous, out known);
        }

        static float Either(KeyCode a, KeyCode b)
        {
            float previous;
            return Key(a, out previous) != 0f || Key(b, out previous) != 0f ? 1f : 0f;
        }

        static float Button(string name, out float previous)
        {
            if (name == null) throw new ArgumentNullException("buttonName");
            bool known;
            float value = Read(name, out previous, out known);
            if (known) return value;
            KeyCode key = DefaultKey(name);
            if (key != KeyCode.None) return Key(key, out previous);
            previous = 0f;
            return 0f;
        }

        static KeyCode DefaultKey(string button)
        {
            switch (button)
            {
                case "Jump": return KeyCode.Space;
                case "Fire1": return KeyCode.LeftControl;
                case "Fire2": return KeyCode.LeftAlt;
                case "Fire3": return KeyCode.LeftShift;
                case "Submit": return KeyCode.Return;
                case "Cancel": return KeyCode.Escape;
                default: return KeyCode.None;
            }
        }

        /// <summary>The KeyCode of a key as Unity's string overloads name it.</summary>
        static KeyCode KeyNamed(string name)
        {
            if (name == null) throw new ArgumentNullException("name");
            if (name.Length == 1)
            {
                char c = name[0];
                if (c >= 'a' && c <= 'z') return (KeyCode)c;
                if (c >= '0' && c <= '9') return KeyCode.Alpha0 + (c - '0');
            }
            switch (name)
            {
                case "space": return KeyCode.Space;
                case "return": case "enter": return KeyCode.Return;
                case "escape": return KeyCode.Escape;
                case "tab": return KeyCode.Tab;
                case "backspace": return KeyCode.Backspace;
                case "delete": return KeyCode.Delete;
                case "up": return KeyCode.UpArrow;
                case "down": return KeyCode.DownArrow;
                case "left": return KeyCode.LeftArrow;
                case "right": return KeyCode.RightArrow;
                case "left shift": return KeyCode.LeftShift;
                case "right shift": return KeyCode.RightShift;
                case "left ctrl": return KeyCode.LeftControl;
                case "right ctrl": return KeyCode.RightControl;
                case "left alt": return KeyCode.LeftAlt;
                case "right alt": return KeyCode.RightAlt;
                case "mouse 0": return KeyCode.Mouse0;
                case "mouse 1": return KeyCode.Mouse1;
                case "mouse 2": return KeyCode.Mouse2;
                default: throw new ArgumentException("Input Key named: " + name + " is unknown", "name");
            }
        }

        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern int Internal_Handle(string action);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern float Internal_Read(int handle, out float previous, out bool known);
    }
}
