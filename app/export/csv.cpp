#include "export/csv.h"

#include "io/number_format.h"

namespace rope::app {

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
      append_number(buffer, cells[c], NumberStyle::csv);
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
