using System;
using System.Runtime.CompilerServices;
using UEngine;

namespace Demo
{
    /// The arena's native side, implemented by the demo game module (demo-game/module):
    /// its size and a flash effect the renderer draws. Without the module attached
    /// (scripts run on a bare host) the arena has a default size and nothing flashes.
    public static class Arena
    {
        const float DefaultHalfWidth = 10f;
        const float DefaultHalfDepth = 6f;

        /// The name the demo module attaches with.
        public const string ModuleName = "demo arena";

        /// Whether the demo game module is attached to the host.
        public static bool Attached { get { return Application.HasGameModule(ModuleName); } }

        /// Half the arena's extent along x (walls at ±HalfWidth).
        public static float HalfWidth { get { return Attached ? Native.HalfWidth() : DefaultHalfWidth; } }

        /// Half the arena's extent along z.
        public static float HalfDepth { get { return Attached ? Native.HalfDepth() : DefaultHalfDepth; } }

        /// Makes the renderer draw the entity highlighted for a moment.
        public static void Flash(UEntity entity)
        {
            if (entity == null) throw new ArgumentNullException("entity");
            if (Attached && !Native.Flash(entity.nativeId))
                throw new MissingReferenceException("Flash: " + entity + " is not alive");
        }

        // Mono binds an internal call when it compiles a method that calls it, and complains
        // loudly on stderr if none is registered. These wrappers are never inlined, so the
        // internal calls are only bound when the module is attached and they are used.
        static class Native
        {
            [MethodImpl(MethodImplOptions.NoInlining)] internal static float HalfWidth() { return Internal_HalfWidth(); }
            [MethodImpl(MethodImplOptions.NoInlining)] internal static float HalfDepth() { return Internal_HalfDepth(); }
            [MethodImpl(MethodImplOptions.NoInlining)] internal static bool Flash(ulong entity) { return Internal_Flash(entity); }

            [MethodImpl(MethodImplOptions.InternalCall)] static extern float Internal_HalfWidth();
            [MethodImpl(MethodImplOptions.InternalCall)] static extern float Internal_HalfDepth();
            [MethodImpl(MethodImplOptions.InternalCall)] static extern bool Internal_Flash(ulong entity);
        }
    }
}
