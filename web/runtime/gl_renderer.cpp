// web/runtime/gl_renderer.cpp — see gl_renderer.h. Written for WebGL2 through Emscripten's GLES3.
#include "gl_renderer.h"

#include <GLES3/gl3.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include "shaders.h"

namespace lb::web {
namespace {

// The one place the GLSL version is set: shaders/ hold bodies only.
constexpr const char* glsl_version = "#version 300 es\n";

// The attribute locations both programs share (they share ui.vert and one vertex array).
enum Attribute : unsigned { a_position = 0, a_uv = 1, a_color = 2 };

// A program compiled and linked without asking how it went: every question is a round trip to
// the GPU process, which first finishes all the work queued before it. Both programs are queued,
// then each is asked once (checked); the shaders' logs are read only when linking failed.
struct QueuedProgram {
    const char* name;
    const char* vert_name;
    const char* frag_name;
    GLuint program, vert, frag;
};

GLuint compile(GLenum type, const char* body) {
    const GLuint shader = glCreateShader(type);
    const char* parts[] = {glsl_version, body};
    glShaderSource(shader, 2, parts, nullptr);
    glCompileShader(shader);
    return shader;
}

QueuedProgram queue_program(const char* name, const char* vert_name, const char* vert, const char* frag_name,
                            const char* frag) {
    QueuedProgram q{name, vert_name, frag_name, glCreateProgram(), compile(GL_VERTEX_SHADER, vert),
                    compile(GL_FRAGMENT_SHADER, frag)};
    glAttachShader(q.program, q.vert);
    glAttachShader(q.program, q.frag);
    glBindAttribLocation(q.program, a_position, "a_position");
    glBindAttribLocation(q.program, a_uv, "a_uv");
    glBindAttribLocation(q.program, a_color, "a_color");
    glLinkProgram(q.program);
    return q;
}

// The linked program, or 0 after logging why not (the shader that did not compile, or the link).
GLuint checked(const QueuedProgram& q) {
    GLint ok = 0;
    glGetProgramiv(q.program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        for (const auto& [shader, file] : {std::pair{q.vert, q.vert_name}, std::pair{q.frag, q.frag_name}}) {
            GLint compiled = 0;
            glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
            if (compiled) continue;
            glGetShaderInfoLog(shader, sizeof log, nullptr, log);
            std::fprintf(stderr, "lookback: shader %s did not compile: %s\n", file, log);
        }
        glGetProgramInfoLog(q.program, sizeof log, nullptr, log);
        std::fprintf(stderr, "lookback: program %s did not link: %s\n", q.name, log);
    }
    glDeleteShader(q.vert);  // flagged only: they go with the program
    glDeleteShader(q.frag);
    if (!ok) glDeleteProgram(q.program);
    return ok ? q.program : 0;
}

GLuint texture_name(ImTextureID id) { return static_cast<GLuint>(reinterpret_cast<intptr_t>(id)); }
ImTextureID texture_id(GLuint name) { return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(name)); }

}  // namespace

bool GlRenderer::create() {
    using namespace lb::shaders;
    const QueuedProgram ui = queue_program("ui", "shaders/ui.vert", ui_vert, "shaders/ui.frag", ui_frag);
    const QueuedProgram heatmap =
        queue_program("heatmap", "shaders/ui.vert", ui_vert, "shaders/heatmap.frag", heatmap_frag);
    ui_program_ = checked(ui);
    heatmap_program_ = checked(heatmap);
    if (!ui_program_ || !heatmap_program_) return false;
    ui_display_size_ = glGetUniformLocation(ui_program_, "u_display_size");
    ui_texture_ = glGetUniformLocation(ui_program_, "u_texture");
    heatmap_display_size_ = glGetUniformLocation(heatmap_program_, "u_display_size");
    heatmap_texture_ = glGetUniformLocation(heatmap_program_, "u_texture");
    heatmap_lo_ = glGetUniformLocation(heatmap_program_, "u_lo");
    heatmap_hi_ = glGetUniformLocation(heatmap_program_, "u_hi");
    heatmap_map_ = glGetUniformLocation(heatmap_program_, "u_map");

    glGenVertexArrays(1, &vertex_array_);
    glGenBuffers(1, &vertex_buffer_);
    glGenBuffers(1, &index_buffer_);
    glBindVertexArray(vertex_array_);
    glBindBuffer(GL_ARRAY_BUFFER, vertex_buffer_);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, index_buffer_);
    glEnableVertexAttribArray(a_position);
    glEnableVertexAttribArray(a_uv);
    glEnableVertexAttribArray(a_color);
    const auto offset = [](std::size_t bytes) { return reinterpret_cast<void*>(bytes); };
    glVertexAttribPointer(a_position, 2, GL_FLOAT, GL_FALSE, sizeof(ImDrawVert), offset(offsetof(ImDrawVert, pos)));
    glVertexAttribPointer(a_uv, 2, GL_FLOAT, GL_FALSE, sizeof(ImDrawVert), offset(offsetof(ImDrawVert, uv)));
    glVertexAttribPointer(a_color, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(ImDrawVert), offset(offsetof(ImDrawVert, col)));
    glBindVertexArray(0);
    return true;
}

void GlRenderer::forget() {
    ui_program_ = heatmap_program_ = 0;
    vertex_array_ = vertex_buffer_ = index_buffer_ = font_texture_ = 0;
    heatmaps_.clear();
    heatmap_draws_.clear();
}

void GlRenderer::upload_fonts(ImFontAtlas& fonts) {
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    fonts.GetTexDataAsRGBA32(&pixels, &width, &height);
    if (font_texture_) glDeleteTextures(1, &font_texture_);
    glGenTextures(1, &font_texture_);
    glBindTexture(GL_TEXTURE_2D, font_texture_);
    // Linear: ImGui's anti-aliased lines sample between texels of the baked line strip.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
}

void GlRenderer::use_ui_program() {
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_CULL_FACE);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_SCISSOR_TEST);
    glUseProgram(ui_program_);
    glUniform2f(ui_display_size_, display_size_.x, display_size_.y);
    glUniform1i(ui_texture_, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindVertexArray(vertex_array_);
}

void GlRenderer::use_heatmap_program(const ImDrawList*, const ImDrawCmd* cmd) {
    const auto& draw = *static_cast<const HeatmapDraw*>(cmd->UserCallbackData);
    GlRenderer& r = *draw.renderer;
    glUseProgram(r.heatmap_program_);
    glUniform2f(r.heatmap_display_size_, r.display_size_.x, r.display_size_.y);
    glUniform1i(r.heatmap_texture_, 0);
    glUniform1f(r.heatmap_lo_, draw.lo);
    glUniform1f(r.heatmap_hi_, draw.hi);
    glUniform1i(r.heatmap_map_, draw.colormap);
}

void GlRenderer::render(const ImDrawData& data, int fb_width, int fb_height, ImVec4 clear_color) {
    display_size_ = data.DisplaySize;
    glViewport(0, 0, fb_width, fb_height);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(clear_color.x, clear_color.y, clear_color.z, clear_color.w);
    glClear(GL_COLOR_BUFFER_BIT);
    use_ui_program();

    const ImVec2 scale = data.FramebufferScale;
    for (int n = 0; n < data.CmdListsCount; n++) {
        const ImDrawList& list = *data.CmdLists[n];
        glBufferData(GL_ARRAY_BUFFER, list.VtxBuffer.Size * sizeof(ImDrawVert), list.VtxBuffer.Data, GL_STREAM_DRAW);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, list.IdxBuffer.Size * sizeof(ImDrawIdx), list.IdxBuffer.Data, GL_STREAM_DRAW);
        for (const ImDrawCmd& cmd : list.CmdBuffer) {
            if (cmd.UserCallback == ImDrawCallback_ResetRenderState) { use_ui_program(); continue; }
            if (cmd.UserCallback) { cmd.UserCallback(&list, &cmd); continue; }
            // Clip rectangle: CSS pixels, y down -> framebuffer pixels, y up.
            const float x0 = (cmd.ClipRect.x - data.DisplayPos.x) * scale.x;
            const float y0 = (cmd.ClipRect.y - data.DisplayPos.y) * scale.y;
            const float x1 = (cmd.ClipRect.z - data.DisplayPos.x) * scale.x;
            const float y1 = (cmd.ClipRect.w - data.DisplayPos.y) * scale.y;
            if (x1 <= x0 || y1 <= y0) continue;
            glScissor(int(x0), int(fb_height - y1), int(x1 - x0 + 0.5f), int(y1 - y0 + 0.5f));
            glBindTexture(GL_TEXTURE_2D, cmd.GetTexID() == shared_font_texture ? font_texture_ : texture_name(cmd.GetTexID()));
            glDrawElements(GL_TRIANGLES, cmd.ElemCount, sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT,
                           reinterpret_cast<void*>(cmd.IdxOffset * sizeof(ImDrawIdx)));
        }
    }
    glBindVertexArray(0);

    heatmap_draws_.clear();
    for (auto it = heatmaps_.begin(); it != heatmaps_.end();) {
        if (!it->second.used) {
            glDeleteTextures(1, &it->second.texture);
            it = heatmaps_.erase(it);
        } else {
            it->second.used = false;
            ++it;
        }
    }
}

ImTextureID GlRenderer::heatmap_texture(ImGuiID id, std::span<const float> values, int rows, int cols) {
    HeatmapTexture& h = heatmaps_[id];
    h.used = true;
    const bool same = h.texture && h.rows == rows && h.cols == cols &&
                      std::equal(values.begin(), values.end(), h.values.begin(), h.values.end());
    if (same) return texture_id(h.texture);
    if (!h.texture) glGenTextures(1, &h.texture);
    glBindTexture(GL_TEXTURE_2D, h.texture);
    // Nearest: one texel per cell, so cells keep sharp edges (and R32F is not filterable).
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, cols, rows, 0, GL_RED, GL_FLOAT, values.data());
    h.rows = rows;
    h.cols = cols;
    h.values.assign(values.begin(), values.end());
    return texture_id(h.texture);
}

void GlRenderer::add_heatmap(ImDrawList& list, ImTextureID texture, ImVec2 min, ImVec2 max,
                             int colormap, float lo, float hi) {
    heatmap_draws_.push_back({this, colormap, lo, hi});
    list.AddCallback(&GlRenderer::use_heatmap_program, &heatmap_draws_.back());
    list.AddImage(texture, min, max);  // texel (0, 0) = row 0, col 0 at the top left
    list.AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

}  // namespace lb::web
