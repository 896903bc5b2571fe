// render/gl.h — the one place OpenGL headers are included.
//
// ImGui's backend carries its own tiny loader for its own calls; ours link straight against
// glvnd's libGL/libOpenGL, which export every core 3.3 entry point, so prototypes suffice and no
// loader library is needed (docs/toolchain.md, item 4).
#pragma once

#if defined(__EMSCRIPTEN__)
// The browser build: OpenGL ES 3.0 as WebGL 2 (what differs is in gl_web.cpp).
#include <GLES3/gl3.h>
#else
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>
#endif
