namespace BenchReload
{
    /// Generation A of ReloadScripts.dll (see ReloadScripts.cs).
    static class Generation { public const int Step = 1; }
}
