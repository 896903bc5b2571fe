// state/view_list.h — the one list of RoPE Lab's views, in menu order (keys 1, 2, ... follow it).
//
//   X(id, ViewType, "name", "Title")
//     id        the ViewId enumerator (state/app_state.h)
//     ViewType  the view's struct (views/ID_view.h); only views/registry.h expands it
//     "name"    the name on the command line, in sessions and lessons (--view pointers)
//     "Title"   the View menu's and the presentation bar's title
//
// Adding a view is one line here plus its file pair (CONTRIBUTING.md).
#pragma once

#define ROPE_LAB_VIEWS(X)                                            \
  X(pointers, PointersView, "pointers", "Rotating pointers")         \
  X(sinusoidal, SinusoidalView, "sinusoidal", "Sinusoidal encoding") \
  X(trajectory, TrajectoryView, "trajectory", "Added vs rotated")    \
  X(sentence, SentenceView, "sentence", "Sentence demo")             \
  X(heatmap, HeatmapView, "heatmap", "Attention scores")             \
  X(decay, DecayView, "decay", "Long-range decay")                   \
  X(spectrum, SpectrumView, "spectrum", "Frequency spectrum")        \
  X(derivation, DerivationView, "derivation", "Derivations")         \
  X(precision, PrecisionView, "precision", "Low precision")          \
  X(extension, ExtensionView, "extension", "Context extension")      \
  X(code, CodeView, "code", "Three codes")                           \
  X(axial, AxialView, "axial", "2D RoPE for images")                 \
  X(multimodal, MultimodalView, "multimodal", "Multimodal RoPE")
