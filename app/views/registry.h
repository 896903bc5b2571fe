// views/registry.h — every view object, generated from the one list in state/view_list.h.
//
// Usage: Views views;  views.visit(state.params.view, [&](auto& v) { v.Draw(state, env); });
// The shell owns one Views (destroyed before the GL context, since views hold GL textures).
#pragma once

#include "state/app_state.h"
#include "views/axial_view.h"
#include "views/code_view.h"
#include "views/decay_view.h"
#include "views/derivation_view.h"
#include "views/extension_view.h"
#include "views/heatmap_view.h"
#include "views/multimodal_view.h"
#include "views/pointers_view.h"
#include "views/precision_view.h"
#include "views/sentence_view.h"
#include "views/sinusoidal_view.h"
#include "views/spectrum_view.h"
#include "views/trajectory_view.h"

namespace rope::app {

struct ViewRegistry {
#define ROPE_LAB_VIEW_MEMBER(id, type, name, title) type id;
  ROPE_LAB_VIEWS(ROPE_LAB_VIEW_MEMBER)
#undef ROPE_LAB_VIEW_MEMBER

  // Calls f(view) with the view object of `id`.
  template <class F>
  decltype(auto) visit(ViewId id, F&& f) {
    switch (id) {
#define ROPE_LAB_VIEW_CASE(id, type, name, title) \
  case ViewId::id:                                \
    return f(this->id);
      ROPE_LAB_VIEWS(ROPE_LAB_VIEW_CASE)
#undef ROPE_LAB_VIEW_CASE
    }
    return f(pointers);
  }
};

}  // namespace rope::app
