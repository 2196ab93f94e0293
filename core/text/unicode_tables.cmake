# Turns Unicode's character database into the tables core/text/text.cpp asks of a code point:
#   cmake -DIN=/usr/share/unicode/UnicodeData.txt -DOUT=unicode_tables.h -P unicode_tables.cmake
# gives, as ascending {first, last} ranges, the combining marks (general category Mn, Mc or Me)
# and the right-to-left letters (bidirectional class R or AL). Read from the file rather than
# written by hand, so a newer Unicode needs no edit here. No range line (<..., First>) of the file
# is a mark or right-to-left, so each line is one code point.

# $1 = the table's name, $2 = a regular expression for the lines it takes.
function(code_point_ranges name pattern)
  file(STRINGS ${IN} lines REGEX "${pattern}")
  set(first -1)
  set(last -1)
  set(body "")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "^[0-9A-F]+" hex "${line}")
    math(EXPR c "0x${hex}")
    math(EXPR next "${last} + 1")
    if(c EQUAL next)
      set(last ${c})
    else()
      if(first GREATER_EQUAL 0)
        math(EXPR a "${first}" OUTPUT_FORMAT HEXADECIMAL)
        math(EXPR b "${last}" OUTPUT_FORMAT HEXADECIMAL)
        string(APPEND body "    {${a}, ${b}},\n")
      endif()
      set(first ${c})
      set(last ${c})
    endif()
  endforeach()
  if(first LESS 0)
    message(FATAL_ERROR "${IN} has no line for the table ${name}: is it Unicode's UnicodeData.txt?")
  endif()
  math(EXPR a "${first}" OUTPUT_FORMAT HEXADECIMAL)
  math(EXPR b "${last}" OUTPUT_FORMAT HEXADECIMAL)
  string(APPEND body "    {${a}, ${b}},\n")
  set(${name} "inline constexpr CodePointSpan ${name}[] = {\n${body}};\n" PARENT_SCOPE)
endfunction()

# Fields: code point;name;general category;combining class;bidirectional class;...
code_point_ranges(combining_marks "^[0-9A-F]+;[^;]*;M[nce];")
code_point_ranges(right_to_left "^[0-9A-F]+;[^;]*;[^;]*;[^;]*;(R|AL);")

file(WRITE ${OUT}.tmp "// Generated from ${IN} by core/text/unicode_tables.cmake. Do not edit.
#pragma once

namespace lb::unicode_data {

struct CodePointSpan {
    char32_t first, last;
};

// General category Mn, Mc or Me: a mark drawn on the character before it.
${combining_marks}
// Bidirectional class R or AL: written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko, ...).
${right_to_left}
}  // namespace lb::unicode_data
")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
