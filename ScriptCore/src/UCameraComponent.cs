namespace UEngine
{
    /// <summary>A native camera; it looks along its entity's forward axis.</summary>
    [NativeComponent("Camera")]
    public class UCameraComponent : URenderComponent
    {
        internal UCameraComponent() { }
    }
}
