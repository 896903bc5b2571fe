#include "cli/link.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "cli/state_flags.h"
#include "state/params.h"

namespace rope::app {
namespace {

// "original-context" -> "original_context"
std::string param_of(std::string_view written) {
  std::string name(written);
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

std::string written_of(std::string_view param) {
  std::string name(param);
  for (char& c : name)
    if (c == '_') c = '-';
  return name;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string percent_encode(std::string_view text) {
  constexpr const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || ch == '-' || ch == '.' || ch == '_' || ch == '~' || ch == ',' ||
        ch == ':') {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      const int hi = hex_digit(text[i + 1]), lo = hex_digit(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

LinkResult apply_link(std::string_view fragment, Params& params) {
  LinkResult result;
  StateFlags accepted;
  std::size_t start = 0;
  while (start <= fragment.size()) {
    const std::size_t end = std::min(fragment.find('&', start), fragment.size());
    const std::string_view entry = fragment.substr(start, end - start);
    start = end + 1;
    if (entry.empty()) continue;
    const std::size_t eq = entry.find('=');
    const std::string written = percent_decode(entry.substr(0, eq));
    const std::string name = param_of(written);
    const ParamSpec* spec = find_param(name);
    if (spec == nullptr) {
      result.refused.push_back(Error{written,
                                     "is not a parameter of RoPE Lab (the link's names "
                                     "are those of rope-lab's flags, e.g. dim, base, "
                                     "view, lesson, step)"});
      continue;
    }
    std::string value;
    if (eq != std::string_view::npos) {
      value = percent_decode(entry.substr(eq + 1));
    } else if (spec->kind == ParamKind::boolean) {
      value = "true";
    } else {
      result.refused.push_back(
          Error{written, "needs a value: " + written + "=" + param_allowed(*spec)});
      continue;
    }
    // checked together with the entries accepted so far, on a copy: a refused entry changes
    // nothing
    StateFlags trial = accepted;
    trial.given.emplace_back(name, value);
    Params copy = params;
    if (auto s = apply_state_flags(trial, copy); !s) {
      std::string parameter = s.error().parameter;
      if (parameter.rfind("--", 0) == 0) parameter.erase(0, 2);
      result.refused.push_back(Error{parameter, s.error().message});
      continue;
    }
    accepted = std::move(trial);
  }
  if (auto s = apply_state_flags(accepted, params); s)
    result.applied = static_cast<int>(accepted.given.size());
  return result;
}

std::string link_of(const Params& params) {
  std::string out;
  const auto add = [&out](std::string_view name, const std::string& value) {
    if (!out.empty()) out += '&';
    out += written_of(name) + "=" + percent_encode(value);
  };
  const Params fresh;
  if (!params.lesson.empty()) {
    add("lesson", params.lesson);
    add("step", std::to_string(params.step));
    return out;
  }
  for (const ParamSpec& spec : param_specs()) {
    // a config.json's path names a file on this machine only; the values it set are in the
    // link one by one
    if (spec.name == std::string_view("config")) continue;
    const std::string value = spec.get(params);
    if (value != spec.get(fresh)) add(spec.name, value);
  }
  return out;
}

}  // namespace rope::app
