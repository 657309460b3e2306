#pragma once
// Statistics the benchmarks report: medians and nearest-rank percentiles of samples.
// Header-only; each benchmark includes it as "../bench-common/sample_stats.hpp".

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <vector>

namespace scripthost::bench {

/// Milliseconds from `a` to `b`.
inline double msBetween(std::chrono::steady_clock::time_point a,
                        std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

/// The median (the mean of the middle two for an even count); 0 for no samples.
inline double median(std::vector<double> v) {
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

/// The nearest-rank `q` quantile (0 < q ≤ 1; 0.99: the 99th percentile); 0 for no samples.
inline double percentile(std::vector<double> v, double q) {
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
    return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

/// Nearest-rank 95th percentile (with fewer than 20 samples: the largest); 0 for none.
inline double p95(std::vector<double> v) {
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(v.size())));
    return v[std::max<std::size_t>(rank, 1) - 1];
}

} // namespace scripthost::bench
