namespace BenchReload
{
    /// Generation B of ReloadScripts.dll (see ReloadScripts.cs).
    static class Generation { public const int Step = 2; }
}
