/* web_stb.c — the stb_truetype and stb_rect_pack functions Dear ImGui calls, compiled from
 * Debian's libstb-dev headers: the browser build's counterpart of Debian's libstb.so. */
#define STB_RECT_PACK_IMPLEMENTATION
#include <stb/stb_rect_pack.h>
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb/stb_truetype.h>
