# The browser build's dependencies (included from the top CMakeLists.txt when EMSCRIPTEN).
#
# Nothing comes from the host's /usr/include or /usr/lib (those are glibc's and x86-64's):
#   * header-only Debian packages (nlohmann-json, CLI11, stb, fmt, fast_float) through a folder
#     of links, build/web/web-include/NAME -> /usr/include/NAME, passed with -isystem;
#   * Dear ImGui's sources and backends from Debian's source package (scripts/deps.sh web),
#     compiled here as Debian compiles libimgui (stb_truetype and stb_rect_pack from libstb-dev);
#   * FreeType and HarfBuzz from their Debian source packages, built for WebAssembly by
#     scripts/web.sh into build/web-deps/wasm/<package>_<version>/ (once per version);
#   * zlib and libpng from their Debian source packages, compiled here (a few files each);
#   * GLFW and OpenGL ES 3.0 (WebGL 2) from emscripten itself (-sUSE_GLFW=3).
# The targets carry the names the desktop build's find_package / pkg_check_modules give, so
# app/CMakeLists.txt links the same names in both builds.
set(ROPE_WEB_DEPS "${CMAKE_SOURCE_DIR}/build/web-deps" CACHE PATH
    "scripts/deps.sh web and scripts/web.sh put the Debian sources and wasm libraries here")
set(ROPE_IMGUI_SOURCE "" CACHE PATH "Dear ImGui's unpacked Debian source package")

function(rope_web_prefix var package)
  file(GLOB found LIST_DIRECTORIES true "${ROPE_WEB_DEPS}/wasm/${package}_*")
  list(FILTER found EXCLUDE REGEX "\\.log$")
  if(NOT found)
    message(FATAL_ERROR "${package} for WebAssembly is missing in ${ROPE_WEB_DEPS}/wasm: "
                        "build with scripts/web.sh")
  endif()
  list(GET found -1 dir)
  set(${var} "${dir}" PARENT_SCOPE)
endfunction()

function(rope_web_source var package)
  file(GLOB found LIST_DIRECTORIES true "${ROPE_WEB_DEPS}/src/${package}/${package}_*")
  if(NOT found)
    message(FATAL_ERROR "the source of ${package} is missing: run scripts/deps.sh web")
  endif()
  list(GET found -1 dir)
  set(${var} "${dir}" PARENT_SCOPE)
endfunction()

if(NOT ROPE_IMGUI_SOURCE)
  rope_web_source(imgui_dir imgui)
  set(ROPE_IMGUI_SOURCE "${imgui_dir}" CACHE PATH "" FORCE)
endif()
rope_web_source(zlib_source zlib)
rope_web_source(libpng_source libpng1.6)

# header-only Debian packages
set(web_include "${CMAKE_BINARY_DIR}/web-include")
file(MAKE_DIRECTORY "${web_include}")
foreach(dir nlohmann CLI stb fmt fast_float)
  if(NOT EXISTS "/usr/include/${dir}")
    message(FATAL_ERROR "/usr/include/${dir} is missing: run scripts/deps.sh web")
  endif()
  file(CREATE_LINK "/usr/include/${dir}" "${web_include}/${dir}" SYMBOLIC)
endforeach()

# Libraries with code, built for wasm by scripts/web.sh
rope_web_prefix(freetype_prefix freetype)
rope_web_prefix(harfbuzz_prefix harfbuzz)

add_library(Freetype::Freetype INTERFACE IMPORTED)
target_include_directories(Freetype::Freetype SYSTEM INTERFACE "${freetype_prefix}/include/freetype2")
target_link_libraries(Freetype::Freetype INTERFACE "${freetype_prefix}/lib/libfreetype.a"
                                                   rope_zlib)

add_library(PkgConfig::HARFBUZZ INTERFACE IMPORTED)
target_include_directories(PkgConfig::HARFBUZZ SYSTEM INTERFACE "${harfbuzz_prefix}/include/harfbuzz")
target_link_libraries(PkgConfig::HARFBUZZ INTERFACE "${harfbuzz_prefix}/lib/libharfbuzz.a")

# zlib and libpng: their library sources, libpng with its shipped default configuration
# (scripts/pnglibconf.h.prebuilt) and without the architecture-specific filters
add_library(rope_zlib STATIC)
foreach(f adler32 compress crc32 deflate gzclose gzlib gzread gzwrite infback inffast inflate
          inftrees trees uncompr zutil)
  target_sources(rope_zlib PRIVATE "${zlib_source}/${f}.c")
endforeach()
target_include_directories(rope_zlib SYSTEM PUBLIC "${zlib_source}")
target_compile_definitions(rope_zlib PRIVATE HAVE_UNISTD_H)
set(libpng_conf "${CMAKE_BINARY_DIR}/libpng-conf")
file(MAKE_DIRECTORY "${libpng_conf}")
configure_file("${libpng_source}/scripts/pnglibconf.h.prebuilt" "${libpng_conf}/pnglibconf.h"
               COPYONLY)
add_library(rope_libpng STATIC)
foreach(f png pngerror pngget pngmem pngpread pngread pngrio pngrtran pngrutil pngset pngtrans
          pngwio pngwrite pngwtran pngwutil)
  target_sources(rope_libpng PRIVATE "${libpng_source}/${f}.c")
endforeach()
target_include_directories(rope_libpng SYSTEM PUBLIC "${libpng_source}" "${libpng_conf}")
target_compile_definitions(rope_libpng PRIVATE PNG_ARM_NEON_OPT=0 PNG_INTEL_SSE_OPT=0
                                               PNG_MIPS_MSA_OPT=0 PNG_POWERPC_VSX_OPT=0)
target_link_libraries(rope_libpng PUBLIC rope_zlib)
add_library(PNG::PNG INTERFACE IMPORTED)
target_link_libraries(PNG::PNG INTERFACE rope_libpng)

add_library(PkgConfig::STB INTERFACE IMPORTED)
target_include_directories(PkgConfig::STB SYSTEM INTERFACE "${web_include}/stb")
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE "${web_include}")
add_library(CLI11::CLI11 INTERFACE IMPORTED)
target_include_directories(CLI11::CLI11 SYSTEM INTERFACE "${web_include}")
add_library(rope_decimal_deps INTERFACE)
target_include_directories(rope_decimal_deps SYSTEM INTERFACE "${web_include}")
target_compile_definitions(rope_decimal_deps INTERFACE FMT_HEADER_ONLY)

# GLFW's API and WebGL 2 are emscripten's own JavaScript libraries.
add_library(glfw INTERFACE IMPORTED)
target_link_options(glfw INTERFACE -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2)
add_library(OpenGL::GL INTERFACE IMPORTED)
add_library(OpenGL::OpenGL INTERFACE IMPORTED)
add_library(OpenGL::EGL INTERFACE IMPORTED)  # no EGL offscreen context in a page
add_library(Threads::Threads INTERFACE IMPORTED)  # no threads in the browser build

# Dear ImGui as Debian builds it (its Makefile: stb from libstb-dev, not the bundled copies)
add_library(rope_imgui STATIC
  "${ROPE_IMGUI_SOURCE}/imgui.cpp" "${ROPE_IMGUI_SOURCE}/imgui_draw.cpp"
  "${ROPE_IMGUI_SOURCE}/imgui_tables.cpp" "${ROPE_IMGUI_SOURCE}/imgui_widgets.cpp"
  "${ROPE_IMGUI_SOURCE}/backends/imgui_impl_glfw.cpp"
  "${ROPE_IMGUI_SOURCE}/backends/imgui_impl_opengl3.cpp"
  "${CMAKE_SOURCE_DIR}/cmake/web_stb.c")
target_compile_definitions(rope_imgui PRIVATE
  IMGUI_DISABLE_STB_RECT_PACK_IMPLEMENTATION "IMGUI_STB_RECT_PACK_FILENAME=<stb/stb_rect_pack.h>"
  IMGUI_DISABLE_STB_TRUETYPE_IMPLEMENTATION "IMGUI_STB_TRUETYPE_FILENAME=<stb/stb_truetype.h>")
target_include_directories(rope_imgui SYSTEM PUBLIC "${ROPE_IMGUI_SOURCE}")
target_include_directories(rope_imgui SYSTEM PRIVATE "${web_include}")
# ImGui 1.86's OpenGL 3 backend takes emscripten for WebGL 1 unless told: WebGL 2 is GLES 3.0.
target_compile_definitions(rope_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)
target_link_libraries(rope_imgui PUBLIC glfw)
add_library(PkgConfig::IMGUI INTERFACE IMPORTED)
target_link_libraries(PkgConfig::IMGUI INTERFACE rope_imgui Freetype::Freetype)

# emcc's JavaScript optimizer needs Debian's acorn; a node other than Debian's (first in PATH)
# finds it only through NODE_PATH, so every link is run with it.
set(CMAKE_CXX_LINKER_LAUNCHER ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs)
