// The module's side of export/mp4_module.h: built into librope_mp4.so with export/mp4.cpp.
#include "export/mp4_module.h"

#include "export/mp4.h"

namespace rope::app {
namespace {

const Mp4Api kApi{
    kMp4ApiVersion,
    [](int width, int height, double fps) { return new Mp4Writer(width, height, fps); },
    [](Mp4Writer* w) { delete w; },
    [](Mp4Writer* w, const Image& frame) { return w->add(frame); },
    [](Mp4Writer* w) { return w->finish(); },
    [](const Mp4Writer* w) { return w->encoder(); },
    [](const Mp4Writer* w) { return w->video_width(); },
    [](const Mp4Writer* w) { return w->video_height(); },
    [] { return Mp4Writer::encoder_name(); },
};

}  // namespace
}  // namespace rope::app

extern "C" __attribute__((visibility("default"))) const rope::app::Mp4Api* rope_mp4_api() {
  return &rope::app::kApi;
}
