namespace UEngine
{
    /// <summary>Which axes a transform operation uses: the world's or the transform's own.</summary>
    public enum Space
    {
        /// <summary>The world's axes.</summary>
        World = 0,
        /// <summary>The transform's own axes (its rotation applied).</summary>
        Self = 1,
    }
}
