# Turns a binary file into a C++ header holding its bytes:
#   cmake -DIN=DejaVuSans.ttf -DOUT=font.h -DNAME=dejavu_sans_ttf -P embed_binary.cmake
# gives  namespace lb::web::embedded { inline constexpr unsigned char NAME[] = {...}; }
# Used to bake the figure font into the module so nothing is fetched at run time.
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# A line break every 32 bytes keeps the header readable by editors and compilers.
string(REGEX REPLACE "((0x..,){32})" "\\1\n" bytes "${bytes}")
file(WRITE ${OUT}.tmp "// Generated from ${IN} by web/runtime/embed_binary.cmake. Do not edit.\n#pragma once\n\nnamespace lb::web::embedded {\ninline constexpr unsigned char ${NAME}[] = {\n${bytes}};\n}  // namespace lb::web::embedded\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
