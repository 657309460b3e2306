#pragma once
// CoroutineInfo: one running coroutine of a script, as the control socket shows it.

#include "scripthost/game/object_id.hpp"

#include <string>

namespace scripthost {

/// A coroutine a script started and that has not finished.
struct CoroutineInfo {
    ObjectId script;        ///< the script that started it (it stops with the script)
    std::string method;     ///< the iterator method, e.g. "Blink" ("Blink > FadeOut" when nested)
    std::string waitingFor; ///< e.g. "next frame", "WaitForSeconds: 0.25 s left", "WaitUntil"
};

} // namespace scripthost
