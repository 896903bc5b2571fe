// ui/page.h — what every pass of a view's Draw reads besides its model: the fonts, the theme's
// colours and plot style, the UI scale, and the canvas's text column inside an 18 px padding.
//
//   const Canvas canvas("my_canvas", &drawn_);
//   const Page pg(canvas, env, state.params.theme);   // pg.f.large, pg.pal.text, pg.x0 ...
// A view's Layout usually extends it: struct MyView::Layout : Page { using Page::Page; ... };
#pragma once

#include <algorithm>
#include <cmath>

#include "ui/canvas.h"
#include "ui/plot.h"
#include "ui/theme.h"
#include "ui/view_env.h"

namespace rope::app {

struct Page {
  Page(const Canvas& canvas, const ViewEnv& env, Theme theme)
      : f(*env.fonts),
        pal(palette(theme)),
        st(plot::style(env, theme, canvas.pen.log)),
        s(env.scale),
        pad(std::round(18.0f * s)),
        x0(canvas.origin.x + pad),
        width(std::max(1.0f, canvas.size.x - 2 * pad)),
        y0(canvas.origin.y + pad),
        bottom(canvas.max().y - pad) {}

  const Fonts& f;
  const Palette& pal;
  plot::Style st;               // records its labels where the canvas's pen does
  float s;                      // env.scale: multiply every px constant by it
  float pad;                    // px
  float x0, width, y0, bottom;  // the text column: x0 ... x0 + width, y0 ... bottom, px
};

}  // namespace rope::app
