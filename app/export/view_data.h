// export/view_data.h — File ▸ Export data: the numbers behind the current view as the CSV that
// `rope-lab export` writes for the same parameters.
//
//   pointers   -> rotate  (the query rotated to m: index,value)
//   spectrum   -> frequencies
//   decay      -> decay
//   sinusoidal -> sinusoidal (the figure's own pe_positions x pe_dim)
//   heatmap    -> scores (RoPE with the same q and k at every position; the other heatmap
//                 settings have no export dataset yet)
//   precision  -> precision (every pair at the position m, with the four formats)
//   extension  -> frequencies with every scaling flag, or extrapolation in that mode
//   axial      -> axial (the scores of the left grid: the query patch, the key at every patch)
#pragma once

#include <filesystem>
#include <string>

#include "export/datasets.h"
#include "rope/conventions.h"
#include "state/app_state.h"

namespace rope::app {

struct ViewExport {
  std::string dataset;          // "decay", ...
  ExportArgs args;              // the flags `rope-lab export` would take
  std::string command() const;  // "rope-lab export decay --dim 16 --base 10000 ..."
};

// The export of the current view, or an Error saying why this view/setting has none.
Result<ViewExport> view_export(const Params& params);

// Builds and writes it atomically to `path`.
Status write_view_export(const Params& params, const std::filesystem::path& path);

}  // namespace rope::app
