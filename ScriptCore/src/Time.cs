namespace UEngine
{
    /// <summary>Frame timing, set by the host before each dispatch.</summary>
    public static class Time
    {
        internal static float s_DeltaTime;
        internal static float s_FixedDeltaTime;
        internal static double s_Time;
        internal static long s_FrameCount;

        /// <summary>Seconds covered by the current step: the frame in Update, the fixed step in FixedUpdate.</summary>
        public static float deltaTime { get { return s_DeltaTime; } }
        /// <summary>The fixed step in seconds.</summary>
        public static float fixedDeltaTime { get { return s_FixedDeltaTime; } }
        /// <summary>Seconds of game time since the host started.</summary>
        public static float time { get { return (float)s_Time; } }
        /// <summary>Frames run since the host started (an int, as in Unity).</summary>
        public static int frameCount { get { return (int)s_FrameCount; } }
        /// <summary>The same as <see cref="deltaTime"/>: this host's time is never scaled.</summary>
        public static float unscaledDeltaTime { get { return s_DeltaTime; } }
        /// <summary>The same as <see cref="time"/>: this host's time is never scaled.</summary>
        public static float unscaledTime { get { return (float)s_Time; } }
    }
}
