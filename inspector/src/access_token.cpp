#include "inspector/access_token.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <sys/random.h>

namespace scripthost::inspector {

Result<std::string> makeAccessToken() {
    std::array<unsigned char, 32> bytes{};
    std::size_t filled = 0;
    while (filled < bytes.size()) {
        const ssize_t got = ::getrandom(bytes.data() + filled, bytes.size() - filled, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return fail(std::string("cannot make the inspector's token: getrandom: ") +
                        std::strerror(errno));
        }
        filled += static_cast<std::size_t>(got);
    }
    static constexpr char kHex[] = "0123456789abcdef";
    std::string token;
    token.reserve(bytes.size() * 2);
    for (const unsigned char byte : bytes) {
        token.push_back(kHex[byte >> 4]);
        token.push_back(kHex[byte & 0x0f]);
    }
    return token;
}

bool tokensEqual(std::string_view given, std::string_view expected) noexcept {
    // Every byte of the expected token is looked at, whatever the given one holds.
    unsigned difference = given.size() == expected.size() ? 0u : 1u;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const unsigned char a = i < given.size() ? static_cast<unsigned char>(given[i]) : 0u;
        difference |= a ^ static_cast<unsigned char>(expected[i]);
    }
    return difference == 0;
}

} // namespace scripthost::inspector
