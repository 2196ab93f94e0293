// web/runtime/download.h — a file the reader saves from a figure: bytes from the module's memory
// become a Blob and a download (nothing leaves the page).
#pragma once
#include <cstddef>
#include <string>

namespace lb::web {

void download_bytes(const std::string& file, const std::string& mime, const void* data, size_t size);

}  // namespace lb::web
