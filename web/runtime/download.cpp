// web/runtime/download.cpp — see download.h.
#include "download.h"

#include <emscripten/emscripten.h>

namespace lb::web {
namespace {

EM_JS(void, js_download, (const char* file, const char* mime, const void* data, int size), {
    const bytes = HEAPU8.slice(data, data + size);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([bytes], {type: UTF8ToString(mime)}));
    link.download = UTF8ToString(file);
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
});

}  // namespace

void download_bytes(const std::string& file, const std::string& mime, const void* data, size_t size) {
    js_download(file.c_str(), mime.c_str(), data, int(size));
}

}  // namespace lb::web
