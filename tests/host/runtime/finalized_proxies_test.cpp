// noteProxyFinalized and takeFinalizedProxies: the finalizer thread's word that an entity's
// proxy is gone, taken by the main thread once per frame.
#include "host/runtime/finalized_proxies.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <thread>

using namespace scripthost;

TEST_CASE("finalized proxies: every note from any thread is taken once, in no particular order") {
    (void)takeFinalizedProxies();
    std::vector<std::thread> finalizers;
    for (std::uint32_t t = 0; t < 4; ++t)
        finalizers.emplace_back([t] {
            for (std::uint32_t i = 0; i < 250; ++i)
                noteProxyFinalized(ObjectId{t * 1000 + i, 1});
        });
    for (std::thread& f : finalizers)
        f.join();
    std::vector<ObjectId> taken = takeFinalizedProxies();
    CHECK(taken.size() == 1000);
    std::sort(taken.begin(), taken.end());
    CHECK(std::adjacent_find(taken.begin(), taken.end()) == taken.end());
    CHECK(std::binary_search(taken.begin(), taken.end(), ObjectId{3249, 1}));
    CHECK(takeFinalizedProxies().empty());
}
