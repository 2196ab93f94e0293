# Turns GLSL files into a C++ header of string constants:
#   shaders/ui.vert -> inline constexpr const char* shader_ui_vert = R"glsl(...)glsl";
# Run as: cmake -DOUT=header.h "-DSOURCES=a.vert;b.frag" -P embed.cmake
set(text "// Generated from shaders/ by shaders/embed.cmake. Do not edit.\n#pragma once\n\nnamespace lb::shaders {\n")
foreach(source ${SOURCES})
  get_filename_component(name ${source} NAME)
  string(REPLACE "." "_" name ${name})
  file(READ ${source} body)
  string(APPEND text "inline constexpr const char* ${name} = R\"glsl(${body})glsl\";\n")
endforeach()
string(APPEND text "}  // namespace lb::shaders\n")
file(WRITE ${OUT}.tmp "${text}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
