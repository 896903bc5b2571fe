#include "export/view_data.h"

#include "io/atomic_file.h"
#include "io/number_format.h"
#include "rope/extrapolation.h"
#include "rope/rotation.h"
#include "state/params.h"
#include "state/scaling_params.h"

namespace rope::app {
namespace {

std::string join(const std::vector<double>& v) {
  std::string s;
  for (double x : v)
    s += (s.empty() ? "" : ",") + format_number(x, NumberStyle::csv);
  return s;
}

// The window keeps LongRoPE's lists while another method is chosen (choosing LongRoPE again
// finds them); `export` reads them only with --scaling longrope and refuses them otherwise.
bool unused_list(const ExtensionParams& ext, std::string_view name) {
  return (name == "long_factor" || name == "short_factor") &&
         ext.scaling.method != ScalingMethod::longrope;
}

// The context-extension settings as export flags, as the view uses them (every view that rotates
// takes drawn_frequencies' θ′): the method and its parameters when a scaling is on (p-RoPE's
// rotary fraction among them), and the rotary fraction and style when the head rotates only in
// part. Nothing when neither applies, so the plain table is exported. With `every`, all of them
// whatever the method (the extension view, whose table shows every field).
void add_extension_args(ExportArgs& args, const ExtensionParams& ext, bool every = false) {
  const bool scaling = every || ext.scaling.method != ScalingMethod::none;
  const bool partial = every || partial_rotary(ext);
  const bool proportional = ext.scaling.method == ScalingMethod::proportional;
  for (const char* name : kExtensionParamNames) {
    const std::string_view n = name;
    if (n == "extension_mode" || n == "compare_methods" || n.ends_with("_file")) continue;
    const bool is_rotary = n == "rotary_fraction" || n == "rotary_style";
    if (is_rotary ? !(partial || (proportional && n == "rotary_fraction")) : !scaling) continue;
    if (unused_list(ext, n)) continue;
    const std::string value = get_extension_param(ext, name);
    if (!value.empty()) args.emplace_back(name, value);  // empty LongRoPE lists
  }
}

}  // namespace

std::string ViewExport::command() const {
  std::string c = "rope-lab export " + dataset;
  for (const auto& [name, value] : args) {
    std::string flag = "--" + name;
    for (char& ch : flag)
      if (ch == '_') ch = '-';
    c += " " + flag + " " + value;
  }
  return c;
}

Result<ViewExport> view_export(const Params& p) {
  const std::string dim = std::to_string(p.dim);
  const std::string base = format_number(p.base, NumberStyle::csv);
  const std::string pairing = pairing_name(p.pairing);
  switch (p.view) {
    case ViewId::pointers: {
      ViewExport e{"rotate",
                   {{"vector", join(effective_vector(p.query, p, false))},
                    {"position", format_number(p.position, NumberStyle::csv)},
                    {"base", base},
                    {"pairing", pairing}}};
      add_extension_args(e.args, p.extension);
      return e;
    }
    case ViewId::spectrum: {
      ViewExport e{"frequencies", {{"dim", dim}, {"base", base}}};
      add_extension_args(e.args, p.extension);
      return e;
    }
    case ViewId::decay: {
      // the curves at θ′ beside θ; the compared d or base and the mean score are not exported
      ViewExport e{
          "decay",
          {{"dim", dim}, {"base", base}, {"max_distance", std::to_string(p.max_distance)}}};
      add_extension_args(e.args, p.extension);
      return e;
    }
    case ViewId::sinusoidal:
      if (p.learned_positions > 0)
        return Error{"view",
                     "the sinusoidal view exports the formula's table; a learned table holds "
                     "seeded stand-in values (learned_positions 0 exports the formula)"};
      return ViewExport{"sinusoidal",
                        {{"positions", std::to_string(p.pe_positions)},
                         {"dim", std::to_string(p.pe_dim)},
                         {"base", base}}};
    case ViewId::heatmap: {
      if (p.content != Content::shared || p.encoding != Encoding::rope || p.compare)
        return Error{"view",
                     "the heatmap exports RoPE scores with the same q and k at every "
                     "position (content shared, encoding rope, not compared)"};
      if (p.score_mode == ScoreMode::cosine)
        return Error{"view",
                     "the heatmap exports q·k scores; 1 + cos (score_mode cosine) is not "
                     "exported"};
      // a band of pairs: the scores of q and k with the other blocks zeroed, as the view has them
      std::vector<double> q = effective_vector(p.query, p, false);
      std::vector<double> k = effective_vector(p.key, p, true);
      rope::keep_band<double>(q, p.pair_band, p.pairing);
      rope::keep_band<double>(k, p.pair_band, p.pairing);
      ViewExport e{"scores",
                   {{"query", join(q)},
                    {"key", join(k)},
                    {"positions", std::to_string(p.positions)},
                    {"base", base},
                    {"pairing", pairing}}};
      if (p.stride > 1) e.args.emplace_back("stride", std::to_string(p.stride));
      add_extension_args(e.args, p.extension);
      return e;
    }
    case ViewId::precision: {
      const PrecisionFormats& f = p.precision.formats;
      return ViewExport{"precision",
                        {{"dim", dim},
                         {"base", base},
                         {"positions", format_number(p.position, NumberStyle::csv)},
                         {"position_format", format_name(f.position)},
                         {"theta_format", format_name(f.theta)},
                         {"angle_format", format_name(f.angle)},
                         {"trig_format", format_name(f.trig)}}};
    }
    case ViewId::extension: {
      if (p.extension.mode == ExtensionMode::extrapolation) {
        // the fit's limit; the view shows the same in red instead of its curves
        if (p.extension.scaling.original_context > rope::kMaxFitContext)
          return Error{"view", "the extrapolation fit takes a context L from 2 to " +
                                   std::to_string(rope::kMaxFitContext) + ", and L is " +
                                   std::to_string(p.extension.scaling.original_context)};
        return ViewExport{
            "extrapolation",
            {{"dim", dim},
             {"base", base},
             {"original_context", get_extension_param(p.extension, "original_context")},
             {"seed", std::to_string(p.seed)}}};
      }
      ViewExport e{"frequencies", {{"dim", dim}, {"base", base}}};
      add_extension_args(e.args, p.extension, true);
      return e;
    }
    case ViewId::axial:
      // the view says the same instead of its picture (views/axial_view.cpp)
      if (p.dim % 4 != 0)
        return Error{"view",
                     "axial 2D RoPE needs d a multiple of 4 (half of the pairs for each "
                     "axis), got d = " +
                         dim};
      return ViewExport{"axial",
                        {{"query", join(effective_vector(p.query, p, false))},
                         {"key", join(effective_vector(p.key, p, true))},
                         {"grid_size", std::to_string(p.grid_size)},
                         {"query_row", std::to_string(p.query_row)},
                         {"query_column", std::to_string(p.query_column)},
                         {"base", base},
                         {"pairing", pairing}}};
    case ViewId::multimodal: {
      // every value the view reads, through the parameter table's own printing
      ViewExport e{"multimodal",
                   {{"query", join(effective_vector(p.query, p, false))},
                    {"key", join(effective_vector(p.key, p, true))},
                    {"dim", dim},
                    {"base", base},
                    {"pairing", pairing}}};
      for (const char* name : {"mm_sequence", "mm_rule", "mm_layout", "mm_section", "mm_query",
                               "mm_seconds", "mm_tokens_per_second"})
        e.args.emplace_back(name, find_param(name)->get(p));
      return e;
    }
    default:
      return Error{"view", std::string("the ") + view_title(p.view) +
                               " view has no data export; use pointers, spectrum, decay, "
                               "sinusoidal, heatmap, precision, extension, axial or multimodal"};
  }
}

Status write_view_export(const Params& params, const std::filesystem::path& path) {
  auto e = view_export(params);
  if (!e) return e.status();
  const DatasetSpec* spec = find_dataset(e.value().dataset);
  if (!spec) return Error{"view", "unknown dataset " + e.value().dataset};
  auto table = build_dataset(*spec, e.value().args);
  if (!table) return table.status();
  return write_file_atomic(path, csv_to_string(table.value()));
}

}  // namespace rope::app
