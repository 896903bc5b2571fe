// export_job_web.cpp — ExportJob in the browser build (export/export_job.h): a page starts no
// child processes, so an export job never starts; it says so, and the File menu's picture
// export in the browser reads the canvas instead (shell/web_window.cpp).
#include "export/export_job.h"

namespace rope::app {

Result<std::unique_ptr<ExportJob>> ExportJob::start(const std::string&,
                                                    const std::vector<std::string>&,
                                                    std::filesystem::path, std::filesystem::path) {
  return Error{"export",
               "animations (GIF, MP4) and large pictures are exported by the desktop app; in the "
               "browser, File > Export picture downloads the canvas as a PNG"};
}

ExportJob::~ExportJob() = default;

ExportJob::Status ExportJob::poll() {
  return status_;
}

ExportJob::Status ExportJob::wait(double) {
  return status_;
}

void ExportJob::cancel() {
  status_ = Status::cancelled;
}

std::string current_executable() {
  return "rope-lab";
}

}  // namespace rope::app
