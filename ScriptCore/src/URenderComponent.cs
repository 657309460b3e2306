namespace UEngine
{
    /// <summary>A native component that draws its entity.</summary>
    [NativeComponent("Render")]
    public class URenderComponent : UComponent
    {
        internal URenderComponent() { }
    }
}
