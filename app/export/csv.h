// export/csv.h — CSV tables of numbers, produced row by row, and how exports print a number.
//
// A CsvTable is a header plus a function that fills the cells of row r. The table is never held
// as text: write_csv formats rows into a buffer of about 1 MiB and hands each full buffer to a
// sink (standard output, an AtomicFile, a string), so 16.7 million rows of scores need no more
// memory than the numbers they are computed from.
//
// Every cell is printed in the csv style of io/number_format.h (%.17g: 17 significant digits read
// back as the very same double, and whole numbers such as indices and positions print plainly,
// "12"). Lines end in "\n"; the header is the
// first line; there is no trailing comma and no quoting (column names are plain words).
//
// Usage:
//   CsvTable t{{"i", "square"}, 4, [](std::int64_t r, std::span<double> cells) {
//     cells[0] = static_cast<double>(r);
//     cells[1] = static_cast<double>(r * r);
//   }};
//   Status s = write_csv(t, [&](std::string_view bytes) { return file.write(bytes); });
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rope/conventions.h"

namespace rope::app {

struct CsvTable {
  std::vector<std::string> header;  // column names; every row has header.size() cells
  std::int64_t rows = 0;            // number of data rows (the header not counted)
  // Fills cells[c], c = 0 ... header.size()-1, for row r = 0 ... rows-1. Called once per row,
  // in order. Must not fail: everything that can go wrong is checked before the table is made.
  std::function<void(std::int64_t row, std::span<double> cells)> fill_row;
};

// Receives consecutive pieces of the output; an Error stops the writing.
using ByteSink = std::function<Status(std::string_view bytes)>;

// Writes the header line and every row to sink in pieces of about chunk_bytes. Returns the
// sink's first error; nothing is written after it.
Status write_csv(const CsvTable& table, const ByteSink& sink, std::size_t chunk_bytes = 1 << 20);

// The whole table as one string (small tables and tests).
std::string csv_to_string(const CsvTable& table);

}  // namespace rope::app
