// Tests of app/export: the streaming CSV writer, the datasets' checks and
// values, and the atomic file writer (including a simulated full disk).
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "export/csv.h"
#include "export/datasets.h"
#include "io/atomic_file.h"
#include "io/number_format.h"
#include "rope/axial.h"
#include "rope/conventions.h"
#include "state/params.h"

namespace fs = std::filesystem;
using namespace rope;
using namespace rope::app;

namespace {

// A fresh directory under $TMPDIR, removed with everything in it at the end of the test.
struct ScratchDir {
  fs::path path;
  ScratchDir() {
    std::string templ = (fs::temp_directory_path() / "rope-export-test.XXXXXX").string();
    REQUIRE(::mkdtemp(templ.data()) != nullptr);
    path = templ;
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // Every name in the directory, sorted (temporary files start with '.').
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path))
      out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
};

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_plain(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

// A cell as the CSV writer prints it.
std::string csv_number(double v) {
  return format_number(v, NumberStyle::csv);
}

CsvTable squares(std::int64_t rows) {
  return CsvTable{{"i", "square"}, rows, [](std::int64_t r, std::span<double> cells) {
                    cells[0] = static_cast<double>(r);
                    cells[1] = static_cast<double>(r * r);
                  }};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    out.push_back(line);
  return out;
}

Result<CsvTable> build(const char* dataset, const ExportArgs& args) {
  const DatasetSpec* spec = find_dataset(dataset);
  REQUIRE(spec != nullptr);
  return build_dataset(*spec, args);
}

std::string build_error(const char* dataset, const ExportArgs& args) {
  auto t = build(dataset, args);
  REQUIRE_FALSE(t.ok());
  return t.error().to_string();
}

}  // namespace

// [SECTION] CSV writer

TEST_CASE("write_csv writes the header and every row", "[csv]") {
  const std::string text = csv_to_string(squares(4));
  CHECK(text == "i,square\n0,0\n1,1\n2,4\n3,9\n");
  CHECK(csv_to_string(squares(0)) == "i,square\n");
}

TEST_CASE("write_csv gives the same bytes whatever the chunk size", "[csv]") {
  const CsvTable t = squares(1000);
  const std::string whole = csv_to_string(t);
  for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
    std::string pieces;
    int calls = 0;
    const Status s = write_csv(
        t,
        [&](std::string_view b) -> Status {
          pieces += b;
          ++calls;
          return {};
        },
        chunk);
    CHECK(s.ok());
    CHECK(pieces == whole);
    CHECK(calls > 1);
  }
}

TEST_CASE("write_csv stops at the sink's first error", "[csv]") {
  int calls = 0;
  const Status s = write_csv(
      squares(100000),
      [&](std::string_view) -> Status {
        ++calls;
        if (calls == 2) return Error{"sink", "disk full"};
        return {};
      },
      1024);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().to_string() == "sink: disk full");
  CHECK(calls == 2);
}

// [SECTION] datasets: checks

TEST_CASE("every dataset is listed with its flags", "[datasets]") {
  CHECK(dataset_names() ==
        "frequencies, sinusoidal, decay, rotate, scores, precision, extrapolation, b-over-d, code, "
        "axial or multimodal");
  CHECK(find_dataset("bogus") == nullptr);
  for (const DatasetSpec& d : dataset_specs()) {
    CHECK(find_dataset(d.name) == &d);
    CHECK_FALSE(d.flags.empty());
  }
}

// A flag without its own `allowed` text is a parameter: the text is the parameter table's, and the
// default the builder falls back on is the app's.
TEST_CASE("a dataset flag that is a parameter says what the parameter table says", "[datasets]") {
  for (const DatasetSpec& d : dataset_specs())
    for (const ExportFlag& f : d.flags) {
      INFO(d.name << " --" << f.name);
      if (f.allowed) continue;
      const ParamSpec* spec = find_param(f.name);
      REQUIRE(spec != nullptr);
      CHECK(flag_allowed(f).starts_with(param_allowed(*spec)));
    }
  const DatasetSpec& decay = *find_dataset("decay");
  const auto flag = [&](std::string_view name) {
    return *std::find_if(decay.flags.begin(), decay.flags.end(),
                         [&](const ExportFlag& f) { return f.name == name; });
  };
  CHECK(flag_allowed(flag("dim")) == "an even integer from 2 to 4096");
  CHECK(flag_allowed(flag("factor")) == param_allowed(*find_param("factor")) + " (default 1)");
  CHECK(flag_allowed(flag("scaling")).ends_with(" or proportional (default none)"));
}

TEST_CASE("bad values are reported with the flag, the value and what is allowed", "[datasets]") {
  CHECK(build_error("frequencies", {{"dim", "7"}, {"base", "10000"}}) ==
        "dim: must be an even integer from 2 to 4096, got 7");
  CHECK(build_error("frequencies", {{"dim", "0"}, {"base", "10000"}}) ==
        "dim: must be an even integer from 2 to 4096, got 0");
  CHECK(build_error("frequencies", {{"dim", "8.5"}, {"base", "10000"}}) ==
        "dim: must be an even integer from 2 to 4096, got '8.5'");
  CHECK(build_error("frequencies", {{"dim", "99999999999999999999"}, {"base", "10"}}) ==
        "dim: must be an even integer from 2 to 4096, got '99999999999999999999'");
  CHECK_THAT(build_error("frequencies", {{"dim", "8"}, {"base", "1"}}),
             Catch::StartsWith("base: ") && Catch::Contains("greater than 1"));
  CHECK_THAT(build_error("frequencies", {{"dim", "8"}, {"base", "nan"}}),
             Catch::StartsWith("base: must be a finite number"));
  CHECK_THAT(build_error("rotate", {{"vector", "1,2,3"}, {"position", "1"}, {"base", "10"}}),
             Catch::StartsWith("vector: has 3 entries"));
  CHECK_THAT(build_error("rotate", {{"vector", "1,x,3,4"}, {"position", "1"}, {"base", "10"}}),
             Catch::StartsWith("vector: entry 2 must be a number, got 'x'"));
  CHECK_THAT(build_error("rotate", {{"vector", "1,1e200"}, {"position", "1"}, {"base", "10"}}),
             Catch::StartsWith("vector: entry 2 must be a number from -1e100 to 1e100"));
  CHECK_THAT(
      build_error("rotate",
                  {{"vector", "1,2"}, {"position", "1"}, {"base", "10"}, {"pairing", "diagonal"}}),
      Catch::StartsWith("pairing: must be one of interleaved or half"));
  CHECK_THAT(
      build_error("scores",
                  {{"query", "1,2"}, {"key", "1,2,3,4"}, {"positions", "4"}, {"base", "10"}}),
      Catch::StartsWith("key: has 4 entries but the query has 2"));
}

TEST_CASE("required, unknown and repeated flags are reported", "[datasets]") {
  CHECK_THAT(build_error("frequencies", {{"dim", "8"}}),
             Catch::StartsWith("base: is required by export frequencies"));
  CHECK_THAT(build_error("decay", {{"dim", "8"}, {"base", "10"}}),
             Catch::StartsWith("max_distance: is required by export decay"));
  CHECK(build_error("frequencies", {{"dim", "8"}, {"base", "10"}, {"key", "1,2"}}) ==
        "key: is not a flag of export frequencies");
  CHECK(build_error("frequencies", {{"dim", "8"}, {"dim", "8"}, {"base", "10"}}) ==
        "dim: is given twice");
}

TEST_CASE("sizes are limited with a message saying how far", "[datasets]") {
  CHECK_THAT(build_error("sinusoidal", {{"positions", "100001"}, {"dim", "2"}}),
             Catch::StartsWith("positions: must be an integer from 1 to 100000"));
  CHECK_THAT(build_error("sinusoidal", {{"positions", "100000"}, {"dim", "4096"}}),
             Catch::StartsWith("positions: 100000 positions x 4096 dimensions") &&
                 Catch::Contains("use at most 4096 positions for dim 4096"));
  CHECK_THAT(build_error("scores",
                         {{"query", "1,2"}, {"key", "1,2"}, {"positions", "4097"}, {"base", "10"}}),
             Catch::StartsWith("positions: must be an integer from 1 to 4096"));
  std::string v512 = "1";
  for (int i = 1; i < 512; ++i)
    v512 += ",1";
  // N*N*d <= 2^32: with d = 512, N = 2896 is the largest (2896^2 * 512 = 4294180864).
  CHECK_THAT(build_error("scores",
                         {{"query", v512}, {"key", v512}, {"positions", "4096"}, {"base", "10"}}),
             Catch::Contains("use at most 2896 positions for d = 512"));
  CHECK(build("scores", {{"query", v512}, {"key", v512}, {"positions", "2896"}, {"base", "10"}})
            .ok());
}

// [SECTION] datasets: values

TEST_CASE("frequencies: theta_0 = 1, wavelength 2 pi, theta_1 = base^(-2/d)", "[datasets]") {
  auto t = build("frequencies", {{"dim", "4"}, {"base", "10000"}});
  REQUIRE(t.ok());
  const auto lines = lines_of(csv_to_string(t.value()));
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "i,theta,wavelength");
  CHECK(lines[1] == "0,1," + csv_number(kTwoPi));
  CHECK(lines[2] == "1,0.01," + csv_number(kTwoPi / 0.01));
}

TEST_CASE("sinusoidal: base defaults to 10000 and rows are (sin, cos) pairs", "[datasets]") {
  auto with_default = build("sinusoidal", {{"positions", "5"}, {"dim", "6"}});
  auto explicit_base = build("sinusoidal", {{"positions", "5"}, {"dim", "6"}, {"base", "10000"}});
  REQUIRE(with_default.ok());
  REQUIRE(explicit_base.ok());
  const std::string text = csv_to_string(with_default.value());
  CHECK(text == csv_to_string(explicit_base.value()));
  const auto lines = lines_of(text);
  REQUIRE(lines.size() == 6);
  CHECK(lines[0] == "pos,d0,d1,d2,d3,d4,d5");
  CHECK(lines[1] == "0,0,1,0,1,0,1");
  CHECK(lines[2].rfind("1," + csv_number(std::sin(1.0)) + "," + csv_number(std::cos(1.0)), 0) == 0);
}

TEST_CASE("decay: D(0) = (d/2 + 1) / 2", "[datasets]") {
  auto t = build("decay", {{"dim", "128"}, {"base", "10000"}, {"max_distance", "10"}});
  REQUIRE(t.ok());
  const auto lines = lines_of(csv_to_string(t.value()));
  REQUIRE(lines.size() == 12);
  CHECK(lines[0] == "distance,value");
  CHECK(lines[1] == "0,32.5");
}

TEST_CASE("rotate: the two pairings move different coordinates", "[datasets]") {
  const std::string c = csv_number(std::cos(1.0)), s = csv_number(std::sin(1.0));
  auto inter = build("rotate", {{"vector", "1,0,0,0"}, {"position", "1"}, {"base", "10000"}});
  auto half = build(
      "rotate", {{"vector", "1,0,0,0"}, {"position", "1"}, {"base", "10000"}, {"pairing", "half"}});
  REQUIRE(inter.ok());
  REQUIRE(half.ok());
  CHECK(csv_to_string(inter.value()) == "index,value\n0," + c + "\n1," + s + "\n2,0\n3,0\n");
  CHECK(csv_to_string(half.value()) == "index,value\n0," + c + "\n1,0\n2," + s + "\n3,0\n");
}

TEST_CASE("scores: S[m][n] depends on n - m only, S[m][m] = q . k", "[datasets]") {
  auto t =
      build("scores",
            {{"query", "1,2,3,4"}, {"key", "0.5,-1,2,0.25"}, {"positions", "6"}, {"base", "10"}});
  REQUIRE(t.ok());
  REQUIRE(t.value().rows == 36);
  std::vector<double> s(36);
  std::vector<double> cells(3);
  for (std::int64_t r = 0; r < 36; ++r) {
    t.value().fill_row(r, cells);
    CHECK(cells[0] == static_cast<double>(r / 6));
    CHECK(cells[1] == static_cast<double>(r % 6));
    s[static_cast<std::size_t>(r)] = cells[2];
  }
  const double qk = 1 * 0.5 + 2 * -1.0 + 3 * 2.0 + 4 * 0.25;
  for (std::size_t m = 0; m < 6; ++m) {
    CHECK(s[m * 6 + m] == Approx(qk).epsilon(1e-14));
    for (std::size_t n = 0; n + 1 < 6 && m + 1 < 6; ++n)
      CHECK(s[(m + 1) * 6 + n + 1] == Approx(s[m * 6 + n]).margin(1e-13));
  }
}

TEST_CASE("axial: every patch's score is the core's, at its offset from the query", "[datasets]") {
  const std::vector<double> q{1, 2, 3, 4, -1, 0.5, 2, 1}, k{0.5, -1, 2, 0.25, 1, 1, -2, 3};
  auto t = build("axial", {{"query", "1,2,3,4,-1,0.5,2,1"},
                           {"key", "0.5,-1,2,0.25,1,1,-2,3"},
                           {"grid_size", "4"},
                           {"query_row", "1"},
                           {"query_column", "2"},
                           {"base", "100"},
                           {"pairing", "half"}});
  REQUIRE(t.ok());
  REQUIRE(t.value().rows == 16);
  REQUIRE(t.value().header ==
          std::vector<std::string>{"row", "column", "score", "row_offset", "column_offset"});
  std::vector<double> cells(5);
  for (std::int64_t r = 0; r < 16; ++r) {
    t.value().fill_row(r, cells);
    const double row = static_cast<double>(r / 4), column = static_cast<double>(r % 4);
    CHECK(cells[0] == row);
    CHECK(cells[1] == column);
    CHECK(cells[3] == row - 1);
    CHECK(cells[4] == column - 2);
    auto s = rope::axial_score(q, k, {1, 2}, {row, column}, 100.0, rope::Pairing::half_split);
    REQUIRE(s.ok());
    CHECK(cells[2] == Approx(s.value()).margin(1e-13));
  }
  auto bad = build("axial", {{"query", "1,2,3,4,5,6"}, {"key", "1,2,3,4,5,6"}});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().to_string() ==
        "query: has 6 entries, but axial 2D RoPE needs d (the number of entries) a multiple of 4 "
        "from 4 to 4096");
  auto far = build("axial", {{"query", "1,2,3,4"}, {"key", "1,2,3,4"}, {"query_row", "40"}});
  REQUIRE_FALSE(far.ok());
  CHECK(far.error().parameter == "query_row");
}

// [SECTION] atomic file writer

TEST_CASE("atomic writer creates a file with exactly the bytes", "[atomic]") {
  ScratchDir dir;
  const fs::path target = dir.path / "out.csv";
  std::string bytes = "a,b\n1,2\n";
  bytes.push_back('\0');  // binary-safe
  bytes += "tail";
  REQUIRE(write_file_atomic(target, bytes).ok());
  CHECK(read_all(target) == bytes);
  CHECK(dir.names() == std::vector<std::string>{"out.csv"});
}

TEST_CASE("atomic writer replaces a file and keeps its permission bits", "[atomic]") {
  ScratchDir dir;
  const fs::path target = dir.path / "figure.png";
  write_plain(target, "old contents that are longer than the new ones");
  REQUIRE(::chmod(target.c_str(), 0640) == 0);
  const std::vector<std::byte> png{std::byte{0x89}, std::byte{'P'}, std::byte{'N'}, std::byte{'G'}};
  REQUIRE(write_file_atomic(target, std::span<const std::byte>(png)).ok());
  CHECK(read_all(target) == "\x89PNG");
  struct stat st {};
  REQUIRE(::stat(target.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);
  CHECK(dir.names() == std::vector<std::string>{"figure.png"});
}

TEST_CASE("atomic writer reports a missing directory and creates nothing", "[atomic]") {
  ScratchDir dir;
  const fs::path target = dir.path / "no" / "such" / "out.csv";
  const Status s = write_file_atomic(target, "x");
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().parameter == target.string());
  CHECK_THAT(s.error().message, Catch::Contains("No such file or directory"));
  CHECK(dir.names().empty());
}

TEST_CASE("atomic writer reports a file where a directory should be", "[atomic]") {
  ScratchDir dir;
  write_plain(dir.path / "plain", "keep");
  const Status s = write_file_atomic(dir.path / "plain" / "out.csv", "x");
  REQUIRE_FALSE(s.ok());
  CHECK_THAT(s.error().message, Catch::Contains("Not a directory"));
  CHECK(read_all(dir.path / "plain") == "keep");
  CHECK(dir.names() == std::vector<std::string>{"plain"});
}

TEST_CASE("atomic writer refuses to replace a directory", "[atomic]") {
  ScratchDir dir;
  fs::create_directory(dir.path / "sub");
  write_plain(dir.path / "sub" / "inside", "keep");
  const Status s = write_file_atomic(dir.path / "sub", "x");
  REQUIRE_FALSE(s.ok());
  CHECK_THAT(s.error().to_string(), Catch::Contains("is a directory"));
  CHECK(read_all(dir.path / "sub" / "inside") == "keep");
  CHECK(dir.names() == std::vector<std::string>{"sub"});
  CHECK_FALSE(write_file_atomic(dir.path / "", "x").ok());  // no file name at all
}

TEST_CASE("atomic writer leaves a read-only directory untouched", "[atomic]") {
  if (::geteuid() == 0) {
    WARN("skipped: root writes into read-only directories");
    return;
  }
  ScratchDir dir;
  const fs::path ro = dir.path / "ro";
  fs::create_directory(ro);
  write_plain(ro / "out.csv", "good");
  REQUIRE(::chmod(ro.c_str(), 0555) == 0);
  const Status s = write_file_atomic(ro / "out.csv", "new");
  REQUIRE_FALSE(s.ok());
  CHECK_THAT(s.error().message, Catch::Contains("Permission denied"));
  CHECK(read_all(ro / "out.csv") == "good");
}

// RLIMIT_FSIZE makes write() fail with EFBIG past the limit, as a full disk fails with ENOSPC:
// the writer must then remove its temporary file and leave the good target as it was.
TEST_CASE("atomic writer keeps the old file when the disk fills up", "[atomic]") {
  ScratchDir dir;
  const fs::path target = dir.path / "data.csv";
  write_plain(target, "good");

  rlimit old_limit{};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);  // otherwise the signal ends the process
  rlimit small = old_limit;
  small.rlim_cur = 64 * 1024;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);

  const Status s = write_file_atomic(target, std::string(1 << 20, 'x'));

  REQUIRE(::setrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  std::signal(SIGXFSZ, old_handler);

  REQUIRE_FALSE(s.ok());
  CHECK(s.error().parameter == target.string());
  CHECK_THAT(s.error().message, Catch::StartsWith("cannot write: File too large"));
  CHECK(read_all(target) == "good");
  CHECK(dir.names() == std::vector<std::string>{"data.csv"});
}

TEST_CASE("an AtomicFile that is not committed changes nothing", "[atomic]") {
  ScratchDir dir;
  const fs::path target = dir.path / "out.csv";
  write_plain(target, "good");
  {
    AtomicFile f;
    REQUIRE(f.open(target).ok());
    REQUIRE(f.write("half a fi").ok());
    CHECK(fs::exists(f.temporary_path()));
    CHECK(f.temporary_path().parent_path() == dir.path);
    CHECK(f.temporary_path().filename().string().rfind(".out.csv.tmp-", 0) == 0);
  }  // destroyed without commit
  CHECK(read_all(target) == "good");
  CHECK(dir.names() == std::vector<std::string>{"out.csv"});

  AtomicFile f;
  REQUIRE(f.open(target).ok());
  REQUIRE(f.write("new").ok());
  f.discard();
  CHECK_FALSE(f.write("more").ok());
  CHECK_FALSE(f.commit().ok());
  CHECK(read_all(target) == "good");
  CHECK(dir.names() == std::vector<std::string>{"out.csv"});
}

TEST_CASE("two writers of one target get their own temporary files", "[atomic]") {
  ScratchDir dir;
  const fs::path target = dir.path / "out.csv";
  AtomicFile a, b;
  REQUIRE(a.open(target).ok());
  REQUIRE(b.open(target).ok());
  CHECK(a.temporary_path() != b.temporary_path());
  REQUIRE(a.write("from a").ok());
  REQUIRE(b.write("from b").ok());
  REQUIRE(a.commit().ok());
  CHECK(read_all(target) == "from a");
  REQUIRE(b.commit().ok());
  CHECK(read_all(target) == "from b");
  CHECK(dir.names() == std::vector<std::string>{"out.csv"});
}

TEST_CASE("a long file name still gets a valid temporary name", "[atomic]") {
  ScratchDir dir;
  const fs::path target = dir.path / std::string(250, 'n');
  REQUIRE(write_file_atomic(target, "ok").ok());
  CHECK(read_all(target) == "ok");
  CHECK(dir.names().size() == 1);
}
