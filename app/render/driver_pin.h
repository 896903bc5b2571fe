// render/driver_pin.h — keeps the OpenGL driver's shared libraries loaded until the process
// ends.
//
// glvnd unloads Mesa's driver (swrast_dri.so, libGLX_mesa, LLVM) when the window system
// connection closes; the driver's small internal allocations then look like leaks of an
// "unknown module" to LeakSanitizer, and such reports would bury any real leak of ours. Pinning
// the libraries (dlopen with RTLD_NOLOAD | RTLD_NODELETE: nothing new is loaded) keeps those
// allocations reachable. Costs nothing at run time; the process is ending anyway.
#pragma once

namespace rope::app {

// Call once after an OpenGL context was made current.
void pin_gl_driver_libraries();

}  // namespace rope::app
