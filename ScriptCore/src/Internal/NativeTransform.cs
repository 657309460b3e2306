using System.Runtime.InteropServices;

namespace UEngine.Internal
{
    /// <summary>
    /// The host's native Transform, byte for byte (the host asserts the layout): what
    /// UTransform reads and writes through the pointer it caches.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    struct NativeTransform
    {
        public Vector3 position;
        public Quaternion rotation;
        public Vector3 scale;
    }
}
