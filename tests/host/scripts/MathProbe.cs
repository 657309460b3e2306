using System.Runtime.CompilerServices;
using UEngine;

namespace Tests
{
    // Round-trips every math type through internal calls that the test registers:
    // by value (argument and return) and by ref (the native side doubles each component).
    public class MathProbe : UMonoScriptComponent
    {
        [SerializeField] Vector2 v2In; [SerializeField] Vector2 v2ByValue; [SerializeField] Vector2 v2ByRef;
        [SerializeField] Vector3 v3In; [SerializeField] Vector3 v3ByValue; [SerializeField] Vector3 v3ByRef;
        [SerializeField] Vector4 v4In; [SerializeField] Vector4 v4ByValue; [SerializeField] Vector4 v4ByRef;
        [SerializeField] Quaternion qIn; [SerializeField] Quaternion qByValue; [SerializeField] Quaternion qByRef;

        public override void Update(float deltaTime)
        {
            v2ByValue = EchoVector2(v2In); v2ByRef = v2In; DoubleVector2(ref v2ByRef);
            v3ByValue = EchoVector3(v3In); v3ByRef = v3In; DoubleVector3(ref v3ByRef);
            v4ByValue = EchoVector4(v4In); v4ByRef = v4In; DoubleVector4(ref v4ByRef);
            qByValue = EchoQuaternion(qIn); qByRef = qIn; DoubleQuaternion(ref qByRef);
        }

        [MethodImpl(MethodImplOptions.InternalCall)] static extern Vector2 EchoVector2(Vector2 v);
        [MethodImpl(MethodImplOptions.InternalCall)] static extern Vector3 EchoVector3(Vector3 v);
        [MethodImpl(MethodImplOptions.InternalCall)] static extern Vector4 EchoVector4(Vector4 v);
        [MethodImpl(MethodImplOptions.InternalCall)] static extern Quaternion EchoQuaternion(Quaternion v);
        [MethodImpl(MethodImplOptions.InternalCall)] static extern void DoubleVector2(ref Vector2 v);
        [MethodImpl(MethodImplOptions.InternalCall)] static extern void DoubleVector3(ref Vector3 v);
        [MethodImpl(MethodImplOptions.InternalCall)] static extern void DoubleVector4(ref Vector4 v);
        [MethodImpl(MethodImplOptions.InternalCall)] static extern void DoubleQuaternion(ref Quaternion v);
    }
}
