using System.Runtime.CompilerServices;

namespace UEngine
{
    /// <summary>Writes to the host's log.</summary>
    public static class Debug
    {
        /// <summary>Writes <paramref name="message"/> (its ToString(), or "null") to the host's log at info level.</summary>
        public static void Log(object message) { Internal_Log(2, Format(message)); }
        /// <summary>Writes <paramref name="message"/> to the host's log as a warning.</summary>
        public static void LogWarning(object message) { Internal_Log(3, Format(message)); }
        /// <summary>Writes <paramref name="message"/> to the host's log as an error.</summary>
        public static void LogError(object message) { Internal_Log(4, Format(message)); }

        static string Format(object message) { return message == null ? "null" : message.ToString(); }

        // level: spdlog's numbering (2 info, 3 warn, 4 error).
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_Log(int level, string message);
    }
}
