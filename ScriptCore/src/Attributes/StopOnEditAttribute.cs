using System;

namespace UEngine
{
    /// <summary>
    /// What a reload does with this coroutine when its code changed. A running coroutine
    /// whose iterator method is unchanged always resumes in the new code exactly where it
    /// was. One whose method was edited is, by default, restarted from its beginning with the
    /// arguments it was started with; mark the method [StopOnEdit] to have it stopped
    /// instead (its script can start it again in OnAfterReload). The reload report names
    /// every coroutine with what happened to it and why.
    /// </summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
    public sealed class StopOnEditAttribute : Attribute { }
}
