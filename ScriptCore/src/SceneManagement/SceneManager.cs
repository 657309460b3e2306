using System;
using System.Runtime.CompilerServices;

namespace UEngine.SceneManagement
{
    /// <summary>
    /// Loading scenes from a script (Unity's SceneManager). A scene is a scene file beside the
    /// active one; loading it replaces the world at the end of the frame.
    /// </summary>
    public static class SceneManager
    {
        /// <summary>The scene the world was last built from.</summary>
        public static Scene GetActiveScene() { return new Scene(Internal_GetActiveScenePath()); }

        /// <summary>
        /// Replaces the world with the scene <paramref name="sceneName"/> at the end of this
        /// frame: every entity not kept by <see cref="UObject.DontDestroyOnLoad"/> is destroyed
        /// (its scripts' OnDisable and OnDestroy run), then the scene's entities are built and
        /// their scripts' Awake and OnEnable run; Start follows in the next frame. The name is a
        /// scene file beside the active one, NAME.scene.json or NAME.json, or a path ending in
        /// .json; <c>LoadScene(GetActiveScene().name)</c> reloads the active scene. A scene that
        /// cannot be found or read, or that names a script class or component kind the host
        /// lacks, throws ArgumentException here and nothing changes.
        /// </summary>
        public static void LoadScene(string sceneName)
        {
            if (sceneName == null) throw new ArgumentNullException("sceneName");
            Internal_LoadScene(sceneName);
        }

        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_LoadScene(string sceneName);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern string Internal_GetActiveScenePath();
    }
}
