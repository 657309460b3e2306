using System.Globalization;

namespace UEngine
{
    /// <summary>
    /// Waits the given number of seconds of game time (<see cref="Time.time"/>, which stops
    /// while the host is paused). The coroutine resumes in the first frame, after Update, at
    /// which at least that much game time has passed since it yielded.
    /// </summary>
    public sealed class WaitForSeconds : YieldInstruction
    {
        internal readonly float m_Seconds;

        /// <summary>Waits <paramref name="seconds"/> seconds of game time.</summary>
        public WaitForSeconds(float seconds) { m_Seconds = seconds; }

        internal override string Describe()
        {
            return "WaitForSeconds(" + m_Seconds.ToString("0.###", CultureInfo.InvariantCulture) + ")";
        }
    }
}
