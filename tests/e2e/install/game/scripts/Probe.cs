using System.Runtime.CompilerServices;
using UEngine;

namespace InstallProbe
{
    static class Native
    {
        [MethodImpl(MethodImplOptions.InternalCall)] public static extern int Internal_Answer();
    }

    public class Probe : UMonoScriptComponent
    {
        public override void Initialize()
        {
            Debug.Log("install probe: the module answers " + Native.Internal_Answer());
        }
    }
}
