// web/lesson_theme.cpp — see lesson_theme.h: the lesson's palette, light and dark.
#include "lesson_theme.h"

namespace lb::web {

const LessonColors& lesson_colors() {
    static const LessonColors light = {
        IM_COL32(37, 99, 170, 255),   IM_COL32(37, 99, 170, 38),
        IM_COL32(205, 96, 20, 255),   IM_COL32(20, 130, 80, 255),
        IM_COL32(0, 0, 0, 22),        IM_COL32(0, 0, 0, 80),
        IM_COL32(255, 214, 120, 150), IM_COL32(160, 200, 240, 110),
        IM_COL32(232, 236, 242, 255), IM_COL32(37, 99, 170, 255),
        IM_COL32(244, 246, 250, 255), IM_COL32(120, 130, 145, 255),
        IM_COL32(160, 160, 165, 255),
        IM_COL32(28, 28, 31, 255),    IM_COL32(105, 105, 115, 255),
        ImVec4(0.75f, 0.10f, 0.10f, 1.0f),
    };
    static const LessonColors night = {
        IM_COL32(110, 170, 240, 255), IM_COL32(110, 170, 240, 40),
        IM_COL32(250, 150, 70, 255),  IM_COL32(90, 205, 140, 255),
        IM_COL32(255, 255, 255, 22),  IM_COL32(255, 255, 255, 90),
        IM_COL32(150, 110, 20, 150),  IM_COL32(40, 80, 130, 150),
        IM_COL32(48, 52, 60, 255),    IM_COL32(110, 170, 240, 255),
        IM_COL32(36, 40, 48, 255),    IM_COL32(120, 130, 150, 255),
        IM_COL32(100, 102, 110, 255),
        IM_COL32(230, 230, 235, 255), IM_COL32(160, 160, 170, 255),
        ImVec4(1.0f, 0.45f, 0.45f, 1.0f),
    };
    return page_is_dark() ? night : light;
}

}  // namespace lb::web
