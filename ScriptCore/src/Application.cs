using System.Runtime.CompilerServices;

namespace UEngine
{
    /// <summary>The host the scripts run in.</summary>
    public static class Application
    {
        /// <summary>The name of the attached game module (scripthost run --game), or "" when
        /// none is attached. Check it before calling a module's own internal calls.</summary>
        public static string gameModule { get { return Internal_GetGameModule(); } }

        /// <summary>True: scripts only ever run in the playing game here (Unity's editor-time check).</summary>
        public static bool isPlaying { get { return true; } }

        /// <summary>Whether the game module with this name is attached.</summary>
        public static bool HasGameModule(string name)
        {
            return name != null && name == gameModule;
        }

        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern string Internal_GetGameModule();
    }
}
