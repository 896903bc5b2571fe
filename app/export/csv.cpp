#include "export/csv.h"

#include <charconv>
#include <cmath>
#include <system_error>

namespace rope::app {

void append_number(std::string& out, double v) {
  // to_chars with chars_format::general and a precision is specified as printf's %.*g, but
  // does not consult the locale (a German LC_NUMERIC would turn printf's '.' into ',').
  // 17 digits of a double need at most 24 characters ("-1.2345678901234567e-308").
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 17);
  if (ec != std::errc()) {  // cannot happen with 32 characters; stay defined regardless
    out += std::isnan(v) ? "nan" : "?";
    return;
  }
  out.append(buf, end);
}

std::string csv_number(double v) {
  std::string s;
  append_number(s, v);
  return s;
}

Status write_csv(const CsvTable& table, const ByteSink& sink, std::size_t chunk_bytes) {
  std::string buffer;
  buffer.reserve(chunk_bytes + 4096);
  for (std::size_t c = 0; c < table.header.size(); ++c) {
    if (c) buffer += ',';
    buffer += table.header[c];
  }
  buffer += '\n';

  std::vector<double> cells(table.header.size());
  for (std::int64_t r = 0; r < table.rows; ++r) {
    table.fill_row(r, cells);
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (c) buffer += ',';
      append_number(buffer, cells[c]);
    }
    buffer += '\n';
    if (buffer.size() >= chunk_bytes) {
      if (auto s = sink(buffer); !s) return s;
      buffer.clear();
    }
  }
  if (!buffer.empty()) return sink(buffer);
  return {};
}

std::string csv_to_string(const CsvTable& table) {
  std::string out;
  const Status s = write_csv(table, [&out](std::string_view bytes) -> Status {
    out += bytes;
    return {};
  });
  (void)s;  // appending to a string cannot fail
  return out;
}

}  // namespace rope::app
