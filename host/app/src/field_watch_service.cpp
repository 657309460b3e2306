#include "field_watch_service.hpp"

#include "daemon_lookup.hpp"
#include "host/engine/script_host.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace scripthost {

namespace ec = control::error_code;
using control::commandError;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

/// Between one watch and the encoder: whether a sweep of it is being encoded, and the
/// buffers the encoder has finished with (the next sweep reads into them).
struct Exchange {
    std::atomic<bool> busy{false};
    std::mutex mutex;
    std::vector<Value> spareValues;
    std::vector<std::uint8_t> sparePresent;
};

/// A finished sweep on its way to the encoder; watchId 0 says "forget this client".
struct Sweep {
    control::ClientId client = 0;
    std::uint64_t watchId = 0;
    std::int64_t frame = 0;
    std::shared_ptr<const std::vector<FieldType>> types; ///< per row
    std::vector<Value> values;
    std::vector<std::uint8_t> present;
    std::shared_ptr<Exchange> exchange;

    /// The sweep that tells the encoder to forget `client`.
    static Sweep forget(control::ClientId client) {
        Sweep sweep;
        sweep.client = client;
        return sweep;
    }
};

/// Equal values; a NaN equals a NaN here, or a NaN field would be sent every sweep.
bool sameValue(const Value& a, const Value& b) {
    if (const float* x = std::get_if<float>(&a); x != nullptr && std::isnan(*x))
        return std::holds_alternative<float>(b) && std::isnan(std::get<float>(b));
    if (const double* x = std::get_if<double>(&a); x != nullptr && std::isnan(*x))
        return std::holds_alternative<double>(b) && std::isnan(std::get<double>(b));
    return static_cast<const Value::variant&>(a) == static_cast<const Value::variant&>(b);
}

/// A finite number as JSON text with the digits valueToJson's dump writes (the shortest that
/// read back as the same double) and, as it does, ".0" after a whole number.
void appendNumber(std::string& out, double v) {
    const std::size_t start = out.size();
    fmt::format_to(std::back_inserter(out), "{}", v);
    if (out.find_first_of(".e", start) == std::string::npos)
        out += ".0";
}

/// Floats, doubles and vectors (every component finite) written directly: most watched
/// fields are these, and a JSON tree for each costs the encoder most of its time.
bool appendFloats(std::string& out, const Value& value) {
    float parts[4];
    std::size_t count = 0;
    if (const auto* d = std::get_if<double>(&value)) {
        if (!std::isfinite(*d))
            return false;
        appendNumber(out, *d);
        return true;
    }
    if (const auto* f = std::get_if<float>(&value)) {
        parts[count++] = *f;
    } else if (const auto* v2 = std::get_if<glm::vec2>(&value)) {
        parts[count++] = v2->x, parts[count++] = v2->y;
    } else if (const auto* v3 = std::get_if<glm::vec3>(&value)) {
        parts[count++] = v3->x, parts[count++] = v3->y, parts[count++] = v3->z;
    } else if (const auto* v4 = std::get_if<glm::vec4>(&value)) {
        parts[count++] = v4->x, parts[count++] = v4->y, parts[count++] = v4->z;
        parts[count++] = v4->w;
    } else if (const auto* q = std::get_if<glm::quat>(&value)) {
        parts[count++] = q->x, parts[count++] = q->y, parts[count++] = q->z;
        parts[count++] = q->w;
    } else {
        return false;
    }
    if (!std::all_of(parts, parts + count, [](float p) { return std::isfinite(p); }))
        return false; // "nan", "inf": valueToJson's words
    const bool vector = !std::holds_alternative<float>(value);
    if (vector)
        out += '[';
    for (std::size_t i = 0; i < count; ++i) {
        if (i > 0)
            out += ',';
        appendNumber(out, static_cast<double>(parts[i]));
    }
    if (vector)
        out += ']';
    return true;
}

/// `value` as JSON text, as valueToJson writes it (integers, booleans and floats directly).
void appendValue(std::string& out, const Value& value, const FieldType& type) {
    const bool integer = type.kind >= ValueKind::Int8 && type.kind <= ValueKind::UInt64;
    if (appendFloats(out, value))
        return;
    if (const auto* i = std::get_if<std::int64_t>(&value); i != nullptr && integer)
        fmt::format_to(std::back_inserter(out), "{}", *i);
    else if (const auto* u = std::get_if<std::uint64_t>(&value); u != nullptr && integer)
        fmt::format_to(std::back_inserter(out), "{}", *u);
    else if (const auto* b = std::get_if<bool>(&value);
             b != nullptr && type.kind == ValueKind::Bool)
        out += *b ? "true" : "false";
    else
        out += valueToJson(value, type).dump(-1, ' ', false, json::error_handler_t::replace);
}

/// Sweeps should be done by this share of their period, so that the next starts on time.
constexpr double kSweepWithin = 0.8;
/// The encoder thread's nice value (the game loop's is the process's, 0 by default).
constexpr int kEncoderNice = 10;
/// A slice reads at least this many rows (a small watch is read in one frame).
constexpr std::size_t kMinRowsPerSlice = 256;

/// The targets of a `watchFields` request, and what could not be watched.
struct ParsedTargets {
    std::vector<FieldWatchTarget> targets;
    std::vector<std::size_t> itemOf; ///< per target, its index in body["watch"]
    std::vector<std::string> problems;
};

/// body["watch"]'s items as targets: bad_request for an item that is not one; an entity or
/// script that is not there is a problem, not an error (the rest is still watched).
std::expected<ParsedTargets, control::CommandError>
parseTargets(const json& list, const World& world, std::size_t maxRows) {
    ParsedTargets parsed;
    std::size_t asked = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const json& item = list[i];
        if (!item.is_object())
            return commandError(ec::badRequest, fmt::format("watch[{}] is not an object", i));
        FieldWatchTarget target;
        if (const auto fields = item.find("fields"); fields != item.end()) {
            if (!fields->is_array() || !std::ranges::all_of(*fields, &json::is_string))
                return commandError(ec::badRequest,
                                    fmt::format("watch[{}].fields must be a list of names", i));
            target.fields = fields->get<std::vector<std::string>>();
        }
        asked += std::max<std::size_t>(target.fields.size(), 1);
        if (asked > maxRows)
            return commandError(ec::badRequest,
                                fmt::format("more than {} fields to watch", maxRows));
        auto script = findScriptArg(world, item);
        if (!script) {
            const std::string problem = fmt::format("watch[{}]: {}", i, script.error().message);
            if (script.error().code == ec::badRequest)
                return commandError(ec::badRequest, problem);
            parsed.problems.push_back(problem);
            continue;
        }
        target.script = script->slot;
        parsed.targets.push_back(std::move(target));
        parsed.itemOf.push_back(i);
    }
    return parsed;
}

/// The reply's "targets": per watched script its entity, class, first row and fields.
json describeTargets(const FieldWatch& watch, const World& world) {
    json described = json::array();
    for (std::size_t row = 0; row < watch.rows().size(); ++row) {
        const FieldWatchRow& r = watch.rows()[row];
        if (row == 0 || watch.rows()[row - 1].target != r.target) {
            const ScriptSlot& slot = *world.script(watch.targets()[r.target].script);
            described.push_back(json{{"entity", world.entity(slot.entity)->name},
                                     {"entityId", idText(slot.entity)},
                                     {"script", slot.className},
                                     {"scriptId", idText(watch.targets()[r.target].script)},
                                     {"row", row},
                                     {"fields", json::array()}});
        }
        described.back()["fields"].push_back(json{
            {"name", r.field}, {"type", kindName(r.type.kind)}, {"typeName", r.type.typeName}});
    }
    return described;
}

} // namespace

/// The encoder thread: compares each sweep with what its client was sent last and sends
/// the difference.
struct FieldWatchService::Encoder {
    Encoder(control::ControlServer& server, std::size_t maxUnsentBytes)
        : server_(server), maxUnsentBytes_(maxUnsentBytes), thread_([this] { run(); }) {}

    ~Encoder() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_one();
        thread_.join();
    }

    /// The encoder thread's kernel id, once it has started (0 before).
    std::atomic<pid_t> threadId{0};

    void push(Sweep sweep) {
        {
            std::lock_guard lock(mutex_);
            queue_.push_back(std::move(sweep));
        }
        wake_.notify_one();
    }

private:
    /// What a client was sent last: the baseline of its next delta.
    struct Sent {
        std::uint64_t watchId = 0;
        std::vector<Value> values;
        std::vector<std::uint8_t> present;
    };

    void run() {
        // Below the game loop: on a machine with few cores its frames come first.
        threadId.store(::gettid(), std::memory_order_release);
        (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), kEncoderNice);
        std::unique_lock lock(mutex_);
        while (true) {
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_)
                return;
            Sweep sweep = std::move(queue_.front());
            queue_.pop_front();
            lock.unlock();
            encode(sweep);
            lock.lock();
        }
    }

    void encode(Sweep& sweep) {
        if (sweep.watchId == 0) {
            sent_.erase(sweep.client);
            return;
        }
        const std::optional<std::size_t> unsent = server_.unsentBytes(sweep.client);
        if (!unsent) {
            sent_.erase(sweep.client);
        } else if (*unsent <= maxUnsentBytes_) {
            send(sweep, sent_[sweep.client]);
        } // else: skipped; the next sweep is compared with what was sent, so nothing is lost
        giveBack(sweep);
    }

    void send(Sweep& sweep, Sent& last) {
        // Written as text: a JSON tree of 30,000 changes costs the encoder ten times more.
        const bool baseline = last.watchId != sweep.watchId;
        std::string changes;
        std::string gone;
        const std::vector<FieldType>& types = *sweep.types;
        for (std::size_t row = 0; row < sweep.values.size(); ++row) {
            const bool now = sweep.present[row] != 0;
            const bool before = !baseline && last.present[row] != 0;
            if (now && (!before || !sameValue(sweep.values[row], last.values[row]))) {
                fmt::format_to(std::back_inserter(changes), "{}[{},", changes.empty() ? "" : ",",
                               row);
                appendValue(changes, sweep.values[row], types[row]);
                changes += ']';
            } else if (!now && (before || baseline)) {
                fmt::format_to(std::back_inserter(gone), "{}{}", gone.empty() ? "" : ",", row);
            }
        }
        if (baseline || !changes.empty() || !gone.empty()) {
            server_.sendSerializedEvent(
                sweep.client, "fields",
                fmt::format(R"({{"watch":{},"frame":{},"changes":[{}],"gone":[{}]}})",
                            sweep.watchId, sweep.frame, changes, gone));
        }
        // This sweep is the new baseline; the old one's buffers go back to the watch.
        last.watchId = sweep.watchId;
        std::swap(last.values, sweep.values);
        std::swap(last.present, sweep.present);
    }

    static void giveBack(Sweep& sweep) {
        {
            std::lock_guard lock(sweep.exchange->mutex);
            sweep.exchange->spareValues = std::move(sweep.values);
            sweep.exchange->sparePresent = std::move(sweep.present);
        }
        sweep.exchange->busy.store(false, std::memory_order_release);
    }

    control::ControlServer& server_;
    const std::size_t maxUnsentBytes_;
    std::map<control::ClientId, Sent> sent_; ///< encoder thread only
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Sweep> queue_;
    bool stopping_ = false;
    std::thread thread_; // last: started once everything above exists
};

/// One client's watch, on the main thread.
struct FieldWatchService::ClientWatch {
    std::uint64_t id = 0;
    FieldWatch watch;
    Clock::duration period{};
    std::shared_ptr<const std::vector<FieldType>> types;
    std::shared_ptr<Exchange> exchange = std::make_shared<Exchange>();
    bool sweeping = false;
    Clock::time_point sweepStarted{};
    Clock::time_point nextSweep{}; ///< when the next sweep is due (the grid)
};

FieldWatchService::FieldWatchService(control::ControlServer& server, FieldWatchLimits limits)
    : server_(server), limits_(limits),
      encoder_(std::make_unique<Encoder>(server, limits.maxUnsentBytes)) {}

FieldWatchService::~FieldWatchService() = default;

pid_t FieldWatchService::encoderThreadId() const noexcept {
    return encoder_->threadId.load(std::memory_order_acquire);
}

std::size_t FieldWatchService::rowCount() const noexcept {
    std::size_t rows = 0;
    for (const auto& [client, watch] : watches_)
        rows += watch->watch.rows().size();
    return rows;
}

control::CommandResult FieldWatchService::watch(control::ClientId client, const json& body,
                                                ScriptHost& host) {
    const auto list = body.find("watch");
    if (list == body.end() || !list->is_array())
        return commandError(ec::badRequest,
                            "\"watch\" must be a list of "
                            "{\"entity\", \"script\", \"fields\"?} (or [] to stop)");
    double hz = limits_.maxHz;
    if (const auto given = body.find("hz"); given != body.end()) {
        if (!given->is_number() || !(given->get<double>() > 0) ||
            given->get<double>() > limits_.maxHz)
            return commandError(
                ec::badRequest,
                fmt::format("\"hz\" must be a number above 0 and at most {}", limits_.maxHz));
        hz = given->get<double>();
    }
    if (list->empty()) {
        if (watches_.erase(client) > 0)
            encoder_->push(Sweep::forget(client));
        return json{{"watch", nullptr}, {"rows", 0}};
    }
    auto parsed = parseTargets(*list, host.world(), limits_.maxRows);
    if (!parsed)
        return std::unexpected(parsed.error());
    std::vector<std::string>& problems = parsed->problems;
    auto made = std::make_unique<ClientWatch>();
    made->id = nextWatchId_++;
    std::vector<FieldWatch::Problem> unresolved;
    made->watch = FieldWatch::make(host, parsed->targets, unresolved);
    for (const FieldWatch::Problem& problem : unresolved) {
        problems.push_back(
            fmt::format("watch[{}]: {}", parsed->itemOf[problem.target], problem.message));
    }
    if (made->watch.rows().size() > limits_.maxRows)
        return commandError(ec::badRequest,
                            fmt::format("more than {} fields to watch", limits_.maxRows));
    made->period =
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1 / hz));
    auto types = std::make_shared<std::vector<FieldType>>();
    for (const FieldWatchRow& row : made->watch.rows())
        types->push_back(row.type);
    made->types = std::move(types);
    json reply{{"watch", made->id},
               {"hz", hz},
               {"rows", made->watch.rows().size()},
               {"targets", describeTargets(made->watch, host.world())},
               {"problems", problems}};
    watches_[client] = std::move(made); // the old watch's last sweep may still be encoded: fine
    return reply;
}

void FieldWatchService::afterFrame(ScriptHost& host) {
    if (watches_.empty())
        return;
    const Clock::time_point now = Clock::now();
    const Clock::duration frame =
        lastFrame_ == Clock::time_point{} ? std::chrono::milliseconds(16) : now - lastFrame_;
    lastFrame_ = now;
    const Clock::time_point deadline = now + limits_.frameBudget;
    for (auto it = watches_.begin(); it != watches_.end();) {
        if (!server_.isConnected(it->first)) {
            encoder_->push(Sweep::forget(it->first));
            it = watches_.erase(it);
            continue;
        }
        const control::ClientId client = it->first;
        ClientWatch& w = *it->second;
        ++it;
        if (!w.sweeping) {
            if (now < w.nextSweep || w.exchange->busy.load(std::memory_order_acquire))
                continue;
            const std::size_t rows = w.watch.rows().size();
            {
                std::lock_guard lock(w.exchange->mutex);
                w.watch.values() = std::move(w.exchange->spareValues);
                w.watch.present() = std::move(w.exchange->sparePresent);
            }
            w.watch.values().resize(rows);
            w.watch.present().resize(rows);
            w.watch.beginSweep();
            w.sweeping = true;
            w.sweepStarted = now;
            // Sweeps start on a grid a period apart, each at the first frame on or after its
            // time: the rate is the period's however the frames fall (a period counted from
            // each start would lose up to a frame a sweep: 6.5 frames, not 6, at 60 Hz and
            // 10 Hz). A sweep later than a whole period moves the grid to now.
            w.nextSweep = (now - w.nextSweep > w.period ? now : w.nextSweep) + w.period;
        }
        // Paced: as far along as the time since the sweep began (and the coming frame) is a
        // share of the period, so that a large watch costs each frame a little.
        const double share =
            std::min(1.0, std::chrono::duration<double>(now - w.sweepStarted + frame).count() /
                              (kSweepWithin * std::chrono::duration<double>(w.period).count()));
        const std::size_t rows = w.watch.rows().size();
        const std::size_t wanted =
            std::max(kMinRowsPerSlice,
                     static_cast<std::size_t>(std::ceil(share * static_cast<double>(rows))));
        const std::size_t done = w.watch.rowsSampled();
        if (wanted <= done || Clock::now() >= deadline)
            continue;
        if (!w.watch.sample(host, wanted - done, deadline))
            continue;
        w.sweeping = false;
        w.exchange->busy.store(true, std::memory_order_release);
        encoder_->push(Sweep{.client = client,
                             .watchId = w.id,
                             .frame = host.frame(),
                             .types = w.types,
                             .values = std::move(w.watch.values()),
                             .present = std::move(w.watch.present()),
                             .exchange = w.exchange});
    }
}

} // namespace scripthost
