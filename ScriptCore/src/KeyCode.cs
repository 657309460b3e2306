namespace UEngine
{
    /// <summary>
    /// A key, as Unity names and numbers it (Input.GetKey). The host sees a key as the input
    /// action <c>"key:" + name</c>, e.g. <c>"key:Space"</c>: the terminal sets it while the key
    /// is held, and input replays and <c>scriptctl input</c> may set it too.
    /// </summary>
    public enum KeyCode
    {
        /// <summary>No key.</summary>
        None = 0,
        /// <summary>The backspace key.</summary>
        Backspace = 8,
        /// <summary>The tab key.</summary>
        Tab = 9,
        /// <summary>The return (enter) key.</summary>
        Return = 13,
        /// <summary>The escape key.</summary>
        Escape = 27,
        /// <summary>The space bar.</summary>
        Space = 32,
        /// <summary>The comma key.</summary>
        Comma = 44,
        /// <summary>The minus key.</summary>
        Minus = 45,
        /// <summary>The period key.</summary>
        Period = 46,
        /// <summary>The slash key.</summary>
        Slash = 47,
        /// <summary>The 0 key on the top row.</summary>
        Alpha0 = 48,
        /// <summary>The 1 key on the top row.</summary>
        Alpha1 = 49,
        /// <summary>The 2 key on the top row.</summary>
        Alpha2 = 50,
        /// <summary>The 3 key on the top row.</summary>
        Alpha3 = 51,
        /// <summary>The 4 key on the top row.</summary>
        Alpha4 = 52,
        /// <summary>The 5 key on the top row.</summary>
        Alpha5 = 53,
        /// <summary>The 6 key on the top row.</summary>
        Alpha6 = 54,
        /// <summary>The 7 key on the top row.</summary>
        Alpha7 = 55,
        /// <summary>The 8 key on the top row.</summary>
        Alpha8 = 56,
        /// <summary>The 9 key on the top row.</summary>
        Alpha9 = 57,
        /// <summary>The semicolon key.</summary>
        Semicolon = 59,
        /// <summary>The equals key.</summary>
        Equals = 61,
        /// <summary>The left bracket key.</summary>
        LeftBracket = 91,
        /// <summary>The backslash key.</summary>
        Backslash = 92,
        /// <summary>The right bracket key.</summary>
        RightBracket = 93,
        /// <summary>The back quote key.</summary>
        BackQuote = 96,
        /// <summary>The A key.</summary>
        A = 97,
        /// <summary>The B key.</summary>
        B = 98,
        /// <summary>The C key.</summary>
        C = 99,
        /// <summary>The D key.</summary>
        D = 100,
        /// <summary>The E key.</summary>
        E = 101,
        /// <summary>The F key.</summary>
        F = 102,
        /// <summary>The G key.</summary>
        G = 103,
        /// <summary>The H key.</summary>
        H = 104,
        /// <summary>The I key.</summary>
        I = 105,
        /// <summary>The J key.</summary>
        J = 106,
        /// <summary>The K key.</summary>
        K = 107,
        /// <summary>The L key.</summary>
        L = 108,
        /// <summary>The M key.</summary>
        M = 109,
        /// <summary>The N key.</summary>
        N = 110,
        /// <summary>The O key.</summary>
        O = 111,
        /// <summary>The P key.</summary>
        P = 112,
        /// <summary>The Q key.</summary>
        Q = 113,
        /// <summary>The R key.</summary>
        R = 114,
        /// <summary>The S key.</summary>
        S = 115,
        /// <summary>The T key.</summary>
        T = 116,
        /// <summary>The U key.</summary>
        U = 117,
        /// <summary>The V key.</summary>
        V = 118,
        /// <summary>The W key.</summary>
        W = 119,
        /// <summary>The X key.</summary>
        X = 120,
        /// <summary>The Y key.</summary>
        Y = 121,
        /// <summary>The Z key.</summary>
        Z = 122,
        /// <summary>The delete key.</summary>
        Delete = 127,
        /// <summary>The up arrow key.</summary>
        UpArrow = 273,
        /// <summary>The down arrow key.</summary>
        DownArrow = 274,
        /// <summary>The right arrow key.</summary>
        RightArrow = 275,
        /// <summary>The left arrow key.</summary>
        LeftArrow = 276,
        /// <summary>The right shift key (a terminal cannot report it alone).</summary>
        RightShift = 303,
        /// <summary>The left shift key (a terminal cannot report it alone).</summary>
        LeftShift = 304,
        /// <summary>The right control key (a terminal cannot report it alone).</summary>
        RightControl = 305,
        /// <summary>The left control key (a terminal cannot report it alone).</summary>
        LeftControl = 306,
        /// <summary>The right alt key (a terminal cannot report it alone).</summary>
        RightAlt = 307,
        /// <summary>The left alt key (a terminal cannot report it alone).</summary>
        LeftAlt = 308,
        /// <summary>The left mouse button (this host has no mouse: set it as an input action).</summary>
        Mouse0 = 323,
        /// <summary>The right mouse button.</summary>
        Mouse1 = 324,
        /// <summary>The middle mouse button.</summary>
        Mouse2 = 325,
    }
}
