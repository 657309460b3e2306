#include "value_argument.hpp"

namespace scriptctl {

nlohmann::json parseValueArgument(const std::string& text) {
    nlohmann::json value = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded())
        return text;
    return value;
}

} // namespace scriptctl
