// makeAccessToken and tokensEqual.
#include <doctest/doctest.h>
#include <inspector/access_token.hpp>
#include <set>

using namespace scripthost::inspector;

TEST_CASE("makeAccessToken: 64 lowercase hex digits, different every time") {
    std::set<std::string> seen;
    for (int i = 0; i < 50; ++i) {
        auto token = makeAccessToken();
        REQUIRE(token.has_value());
        CHECK(token->size() == 64);
        CHECK(token->find_first_not_of("0123456789abcdef") == std::string::npos);
        seen.insert(*token);
    }
    CHECK(seen.size() == 50);
}

TEST_CASE("tokensEqual: equal only when both length and every byte agree") {
    CHECK(tokensEqual("abc", "abc"));
    CHECK_FALSE(tokensEqual("abd", "abc"));
    CHECK_FALSE(tokensEqual("ab", "abc"));
    CHECK_FALSE(tokensEqual("abcd", "abc"));
    CHECK_FALSE(tokensEqual("", "abc"));
    CHECK(tokensEqual("", ""));
}
