#include "server_protocol.hpp"

#include <charconv>

namespace scripthost::compiler::protocol {

namespace {

template <typename Number> bool parseNumber(std::string_view text, Number& value) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end && !text.empty();
}

/// Splits at single spaces.
std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t space = line.find(' ', start);
        parts.push_back(line.substr(start, space - start));
        if (space == std::string_view::npos) {
            return parts;
        }
        start = space + 1;
    }
}

/// 64 lowercase hex digits: a SHA-256 as the server writes it.
bool isHash(std::string_view text) {
    return text.size() == 64 &&
           text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

} // namespace

std::string escape(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '\\':
            escaped += "\\\\";
            break;
        case '\n':
            escaped += "\\n";
            break;
        case '\r':
            escaped += "\\r";
            break;
        default:
            escaped += c;
        }
    }
    return escaped;
}

std::string unescape(std::string_view text) {
    std::string plain;
    plain.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) {
            const char c = text[++i];
            plain += c == 'n' ? '\n' : c == 'r' ? '\r' : c;
        } else {
            plain += text[i];
        }
    }
    return plain;
}

std::string encodeBuild(std::uint64_t id, std::string_view workingFolder,
                        const std::vector<std::string>& args, bool prepareNext) {
    std::string request = "BUILD " + std::to_string(id) + " " + std::to_string(args.size()) +
                          (prepareNext ? "\n" : " keep\n");
    request += escape(workingFolder);
    request += '\n';
    for (const std::string& arg : args) {
        request += escape(arg);
        request += '\n';
    }
    return request;
}

std::string encodeSettle(std::uint64_t id) {
    return "SETTLE " + std::to_string(id) + "\n";
}

std::string encodeInterface(std::uint64_t id, std::string_view assembly) {
    return "INTERFACE " + std::to_string(id) + "\n" + escape(assembly) + "\n";
}

ServerLine parseLine(std::string_view line) {
    using Kind = ServerLine::Kind;
    ServerLine parsed;
    if (line.starts_with("| ")) {
        parsed.kind = Kind::Output;
        parsed.text = unescape(line.substr(2));
        return parsed;
    }
    if (line.starts_with("FATAL ")) {
        parsed.kind = Kind::Fatal;
        parsed.text = unescape(line.substr(6));
        return parsed;
    }
    const auto parts = words(line);
    if (parts[0] == "END" && parts.size() == 5 && parseNumber(parts[1], parsed.id) &&
        parseNumber(parts[2], parsed.status) &&
        (parts[4] == "prepared" || parts[4] == "imported")) {
        long long ms = 0;
        if (parseNumber(parts[3], ms)) {
            parsed.kind = Kind::End;
            parsed.referencesPrepared = parts[4] == "prepared";
            return parsed;
        }
    } else if (parts[0] == "SETTLED" && parts.size() == 3 && parseNumber(parts[1], parsed.id) &&
               (parts[2] == "prepared" || parts[2] == "none")) {
        parsed.kind = Kind::Settled;
        parsed.referencesPrepared = parts[2] == "prepared";
        return parsed;
    } else if (parts[0] == "INTERFACE" && parts.size() == 3 && parseNumber(parts[1], parsed.id) &&
               (parts[2] == "-" || isHash(parts[2]))) {
        parsed.kind = Kind::Interface;
        parsed.text = parts[2] == "-" ? std::string() : std::string(parts[2]);
        return parsed;
    } else if (parts[0] == "PONG" && parts.size() == 2 && parseNumber(parts[1], parsed.id)) {
        parsed.kind = Kind::Pong;
        return parsed;
    } else if (parts[0] == "READY" && parts.size() >= 3 && parseNumber(parts[1], parsed.status)) {
        parsed.kind = Kind::Ready;
        parsed.text = unescape(line.substr(line.find(' ', 6) + 1));
        return parsed;
    }
    parsed = ServerLine{};
    parsed.text = std::string(line.substr(0, 200));
    return parsed;
}

} // namespace scripthost::compiler::protocol
