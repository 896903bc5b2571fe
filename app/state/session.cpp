#include "state/session.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>
#include <vector>

#include "io/atomic_file.h"
#include "io/number_format.h"
#include "state/params.h"

namespace rope::app {
namespace {

constexpr const char* kFormat = "rope-lab-session";
constexpr std::uintmax_t kMaxSessionBytes = 1 << 20;  // a session is a few kB; refuse junk

Error session_error(std::string message) {
  return Error{"session", std::move(message)};
}

}  // namespace

std::string session_to_json(const Params& params) {
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  for (const ParamSpec& spec : param_specs()) {
    const std::string text = spec.get(params);
    if (spec.kind == ParamKind::boolean) {
      values[spec.name] = text == "true";
    } else if (auto num = parse_real(spec.name, text);
               num && (spec.kind == ParamKind::integer || spec.kind == ParamKind::real)) {
      const double x = num.value();
      if (x == std::round(x) && std::fabs(x) < 9e15) {
        values[spec.name] = static_cast<long long>(x);
      } else {
        values[spec.name] = x;  // shortest text that reads back to the same double
      }
    } else {
      values[spec.name] = text;
    }
  }
  nlohmann::ordered_json doc;
  doc["format"] = kFormat;
  doc["version"] = kSessionVersion;
  doc["params"] = std::move(values);
  return doc.dump(2) + "\n";
}

Status session_from_json(std::string_view text, Params& params) {
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return session_error("is not valid JSON (truncated or damaged?)");
  if (!doc.is_object()) return session_error("must be a JSON object");
  const auto format = doc.find("format");
  if (format == doc.end() || !format->is_string() || format->get<std::string>() != kFormat)
    return session_error(std::string("is not a RoPE Lab session (\"format\" must be \"") + kFormat +
                         "\")");
  const auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer())
    return session_error("has no integer \"version\"");
  const auto v = version->get<long long>();
  if (v > kSessionVersion)
    return session_error("was written by a newer RoPE Lab (version " + std::to_string(v) +
                         "); this build reads version " + std::to_string(kSessionVersion) +
                         " and older");
  if (v < 1) return session_error("has an invalid version " + std::to_string(v));
  for (const auto& [key, _] : doc.items())
    if (key != "format" && key != "version" && key != "params")
      return session_error("has an unknown key \"" + key + "\"");
  const auto values = doc.find("params");
  if (values == doc.end() || !values->is_object()) return session_error("has no \"params\" object");

  Params trial = params;
  // The model preset first (its values are the session's starting point; the session's own
  // values, saved beside it, then win), the others in the file's order.
  std::vector<std::pair<std::string, const nlohmann::json*>> ordered;
  for (const auto& [key, value] : values->items())
    ordered.emplace(key == "model" ? ordered.begin() : ordered.end(), key, &value);
  for (const auto& [key, value_ptr] : ordered) {
    const nlohmann::json& value = *value_ptr;
    if (!find_param(key)) return session_error("has an unknown parameter \"" + key + "\"");
    std::string value_text;
    if (value.is_boolean()) {
      value_text = value.get<bool>() ? "true" : "false";
    } else if (value.is_number()) {
      value_text = format_number(value.get<double>(), NumberStyle::csv);
    } else if (value.is_string()) {
      value_text = value.get<std::string>();
    } else {
      return session_error("parameter \"" + key + "\" must be a number, a string or true/false");
    }
    if (auto s = set_param(trial, key, value_text); !s)
      return session_error("parameter " + s.error().to_string());
  }
  if (auto s = validate_params(trial); !s)
    return session_error("parameter " + s.error().to_string());
  params = std::move(trial);
  return {};
}

Status save_session(const std::filesystem::path& path, const Params& params) {
  return write_file_atomic(path, session_to_json(params));
}

Status load_session(const std::filesystem::path& path, Params& params) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return Error{path.string(), "cannot be read: " + ec.message()};
  if (size > kMaxSessionBytes)
    return Error{path.string(),
                 "is " + std::to_string(size) + " bytes; a session is at most 1 MiB"};
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) return Error{path.string(), "cannot be read"};
  if (auto s = session_from_json(text.str(), params); !s)
    return Error{path.string(), s.error().message};
  return {};
}

}  // namespace rope::app
