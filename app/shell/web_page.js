// web_page.js — the browser build's bridge to its page (an emscripten --js-library): what C++
// asks of the page in shell/web_window.cpp. Strings are UTF-8 in the wasm heap; a string
// returned is malloc'ed (emscripten's allocateUTF8) and freed by the caller.
mergeInto(LibraryManager.library, {
  // The canvas in device pixels: its CSS size times devicePixelRatio; the drawing buffer is
  // resized to it when it differs. Writes width, height (int) and the ratio (double).
  rope_web_canvas_size: function(width_ptr, height_ptr, ratio_ptr) {
    var canvas = Module['canvas'];
    var ratio = window.devicePixelRatio || 1;
    var rect = canvas.getBoundingClientRect();
    var w = Math.max(1, Math.round(rect.width * ratio));
    var h = Math.max(1, Math.round(rect.height * ratio));
    if (canvas.width != w) canvas.width = w;
    if (canvas.height != h) canvas.height = h;
    HEAP32[width_ptr >> 2] = w;
    HEAP32[height_ptr >> 2] = h;
    HEAPF64[ratio_ptr >> 3] = ratio;
  },
  rope_web_fragment: function() {
    return allocateUTF8(window.location.hash.replace(/^#/, ''));
  },
  // The address bar follows the state without a new history entry per change.
  rope_web_set_fragment: function(text_ptr) {
    var text = UTF8ToString(text_ptr);
    var url = window.location.pathname + window.location.search + (text ? '#' + text : '');
    window.history.replaceState(null, '', url);
    if (window.ropeLab) window.ropeLab.link = text;
  },
  rope_web_link: function() {  // the page's own address without the fragment
    return allocateUTF8(window.location.origin + window.location.pathname);
  },
  rope_web_copy_text: function(text_ptr) {
    var text = UTF8ToString(text_ptr);
    if (window.ropeLab) window.ropeLab.copied = text;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).catch(function() {});
    }
  },
  // A download of bytes from the heap, named `name`.
  rope_web_download: function(name_ptr, mime_ptr, data_ptr, size) {
    var bytes = HEAPU8.slice(data_ptr, data_ptr + size);
    var blob = new Blob([bytes], {type: UTF8ToString(mime_ptr)});
    var a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = UTF8ToString(name_ptr);
    document.body.appendChild(a);
    a.click();
    setTimeout(function() { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
    if (window.ropeLab) {  // for tests: text files with their text, the last picture whole
      var mime = UTF8ToString(mime_ptr);
      var image = mime.indexOf('image/') === 0;
      window.ropeLab.downloads.push({name: a.download, size: size, mime: mime,
        text: image ? null : new TextDecoder().decode(bytes)});
      if (image) {
        var text = '';
        for (var i = 0; i < bytes.length; i += 32768)
          text += String.fromCharCode.apply(null, bytes.subarray(i, i + 32768));
        window.ropeLab.lastImage = btoa(text);  // base64; only the last, not one per download
      }
    }
  },
  rope_web_storage_get: function(key_ptr) {
    var value = null;
    try { value = window.localStorage.getItem(UTF8ToString(key_ptr)); } catch (e) {}
    return value === null ? 0 : allocateUTF8(value);
  },
  rope_web_storage_set: function(key_ptr, value_ptr) {
    try { window.localStorage.setItem(UTF8ToString(key_ptr), UTF8ToString(value_ptr)); } catch (e) {}
  },
  // What the page and its tests read: frames drawn, the time of the first, each frame's time.
  rope_web_frame_drawn: function(ms) {
    var lab = window.ropeLab;
    if (!lab) return;
    lab.frames += 1;
    if (lab.frames == 1) {
      lab.firstFrameAt = performance.now();
      var loading = document.getElementById('loading');
      if (loading) loading.style.display = 'none';
    }
    lab.frameTimes.push(ms);                  // the frame's own work on the main thread, ms
    lab.frameStamps.push(performance.now());  // when it ended: intervals are the frame rate
    if (lab.frameTimes.length > 600) { lab.frameTimes.shift(); lab.frameStamps.shift(); }
  },
  rope_web_state: function(text_ptr) {  // the state's summary, for tests (JSON)
    if (window.ropeLab) window.ropeLab.state = JSON.parse(UTF8ToString(text_ptr));
  },
  rope_web_fail: function(text_ptr) {
    if (window.ropeLabFail) window.ropeLabFail(UTF8ToString(text_ptr));
  },
  rope_web_copy_link: function() {
    var text = window.location.href;
    if (window.ropeLab) window.ropeLab.copied = text;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).catch(function() {});
    }
  },
  // File > Open session: the browser's file picker; the text goes to rope_web_file_opened.
  rope_web_pick_file: function() {
    var input = document.createElement('input');
    input.type = 'file';
    input.accept = '.json,application/json';
    input.onchange = function() {
      if (input.files.length > 0) Module['ropeOpenFile'](input.files[0]);
    };
    input.click();
  },
  // The keys the app takes from the browser (shell/shortcuts.h, browser_claimed_keys): GLFW key
  // codes, each either with any modifiers (F1 ... F12: help, reload, full screen, developer
  // tools) or with Ctrl only (Ctrl + S would save the page, Ctrl + P print it). The browser's
  // default is prevented; the app still gets the key through GLFW's own listener.
  rope_web_claim_keys__deps: ['$GLFW'],
  rope_web_claim_keys: function(keys_ptr, ctrl_ptr, count) {
    var taken = {};
    for (var i = 0; i < count; ++i)
      taken[HEAP32[(keys_ptr >> 2) + i] + (HEAP32[(ctrl_ptr >> 2) + i] ? 'c' : 'k')] = true;
    window.addEventListener('keydown', function(e) {
      var key = GLFW.DOMToGLFWKeyCode(e.keyCode);
      if (taken[key + 'k'] || (e.ctrlKey && taken[key + 'c'])) e.preventDefault();
    }, true);
  },
  // Presentation mode and F11: the whole page in the browser's full screen (shell/web_window.cpp
  // follow_full_screen). A refused request (no key press just before) leaves the page as it is.
  rope_web_fullscreen: function() {
    return (document.fullscreenElement || document.webkitFullscreenElement) ? 1 : 0;
  },
  rope_web_set_fullscreen: function(on) {
    var page = document.documentElement;
    var full = document.fullscreenElement || document.webkitFullscreenElement;
    try {
      var done = null;
      if (on && !full) {
        var ask = page.requestFullscreen || page.webkitRequestFullscreen;
        if (ask) done = ask.call(page, {navigationUI: 'hide'});
      } else if (!on && full) {
        var leave = document.exitFullscreen || document.webkitExitFullscreen;
        if (leave) done = leave.call(document);
      }
      if (done && done.catch) done.catch(function() {});
    } catch (e) {}
  },
  // Called once at start: files dropped on the page open as sessions.
  rope_web_install_drop: function(app) {
    Module['ropeOpenFile'] = function(file) {
      file.text().then(function(text) {
        var ptr = allocateUTF8(text);
        var name_ptr = allocateUTF8(file.name);
        _rope_web_file_opened(app, name_ptr, ptr);
        _free(ptr);
        _free(name_ptr);
      });
    };
    var canvas = Module['canvas'];
    canvas.addEventListener('dragover', function(e) { e.preventDefault(); });
    canvas.addEventListener('drop', function(e) {
      e.preventDefault();
      if (e.dataTransfer.files.length > 0) Module['ropeOpenFile'](e.dataTransfer.files[0]);
    });
  },
});
