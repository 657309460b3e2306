using System.IO;

namespace UEngine.SceneManagement
{
    /// <summary>
    /// A scene file the world can be built from (Unity's Scene): its name is the file's name
    /// without ".json" and ".scene" ("level2.scene.json" is "level2").
    /// </summary>
    public struct Scene
    {
        readonly string m_Path;

        internal Scene(string path) { m_Path = string.IsNullOrEmpty(path) ? null : path; }

        /// <summary>The scene's file, as the host was given it; "" when the world came from no file.</summary>
        public string path { get { return m_Path ?? ""; } }

        /// <summary>The file's name without ".json" and ".scene"; what <see cref="SceneManager.LoadScene(string)"/> takes.</summary>
        public string name
        {
            get
            {
                if (m_Path == null) return "";
                string file = Path.GetFileName(m_Path);
                if (file.EndsWith(".json")) file = file.Substring(0, file.Length - 5);
                if (file.EndsWith(".scene")) file = file.Substring(0, file.Length - 6);
                return file;
            }
        }

        /// <summary>Whether this names a scene file (false for a world built without one).</summary>
        public bool IsValid() { return m_Path != null; }

        /// <summary>Whether it is loaded: the active scene always is.</summary>
        public bool isLoaded { get { return m_Path != null; } }

        /// <summary>Unity's build index; scenes here are files, not a build list: always -1.</summary>
        public int buildIndex { get { return -1; } }
    }
}
