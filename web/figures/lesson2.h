// web/figures/lesson2.h — the figures of the lesson's second part, the experiment on the date
// task (docs/dataset.md): their own state (owned by the app, web/app.cpp) and the functions that
// make them FigureSpecs. What they show comes from the Lab (web/lab/lab.h), handed to each: the
// runs, the shipped models and each string's analysis (web/lab/analysis.h). A figure's settings
// are its own, beside its URL table; it hands the Lab a run's config.
//
//   training    figures/training.cpp   plain and an attention design trained side by side, in workers
//   sweep       figures/sweep.cpp      widths 8–64 × two models; per-position and length views
//   alignment   figures/alignment.cpp  the attention map of one string; click a row for its bars
//   probes      figures/probes.cpp     occlusion and the gradient path of the same string
//   checked     figures/checked.cpp    a task's map against the alignment the task knows (dates,
//                                       reversal, translation), with the native sweep's scores
//   results     figures/results.cpp    every result in one table, ranked by any column
//   transformer-training  figures/transformer.cpp  a Transformer with memory first and one
//                                       with memory all, trained side by side in workers
//   transformer-maps      figures/transformer.cpp  its cross-attention (mean and per head) and
//                                       its encoder's self-attention for one string; a step's
//                                       cross-attention moved and the string decoded again
//
// Legend: T output length (10), S input length, H width.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "analysis.h"
#include "figure.h"
#include "lab.h"
#include "map_view.h"

namespace lb::web {

// --- the figures -------------------------------------------------------------------------------
// The GRU pair's settings: plain against the attention design picked, on any task.
struct TrainingState {
    TrainingState();
    // The design's run, in the schema's struct (settings/run_settings.h): its task (the date
    // task's dial in it), width, design, scorer, input feeding, seed, epochs and learning rate.
    // The plain run is the same without attention.
    RunSettings run;
    bool bleu_asked = false;  // tr.bleu: BLEU on a task of words that is not the translation (a reader's own translation)
    std::array<RunSettings, 2> configs() const;  // [0] plain, [1] the design
    UrlTable url{"tr."};
};
FigureSpec training_figure(Lab& lab, TrainingState& state);
struct SweepState {
    SweepState();
    int epochs = 12;               // of each cell not yet made
    UrlTable url{"sw."};
};
FigureSpec sweep_figure(Lab& lab, SweepState& state);

// The string the alignment and probe figures look at. The alignment figure shows the shipped
// attention model of the dates, or the training figure's attention run on that figure's task
// (any task, a reader's own too) once the pair has an epoch of it; the probes read only the dates.
struct AlignmentState {
    AlignmentState();
    const Task* task = &date_task();  // the task shown (refresh_alignment); only compared, read while shown
    long subject = 0;               // what `task` is shown for: 0 the dates, else the attention run's id
    int example = -1;               // held-out index shown, or -1 for a typed string
    TypedInput typed;               // the date shown when example < 0 (the URL's al.date)
    TypedInput typed_other;         // an input of another task, typed (never in the URL: its model is this page's)
    ModelInput shown;               // the string whose map is shown
    std::vector<std::string> shown_tokens;  // [S] its tokens (a date's characters, a task's words)
    std::string shown_target;       // its right answer ("" when unknown: a typed string)
    bool use_live = false;          // the models trained in the page instead of the shipped
    int selected_output = 0;        // the output row whose bars are shown
    int masked = -1;                // probes: the input position masked (occlusion), or -1
    Move move;                      // al.move: a step's attention moved and the string decoded again
    std::shared_ptr<const WhatIf> what_if;  // that decoding, read for `shown` (refresh_alignment)
    std::shared_ptr<const Analysis> analysis;  // the attention model's of `shown` (refresh_alignment)
    std::string model_label;        // which attention model made the map
    std::string encoder_note;       // what a column of its map is (map_view.h's encoder_note)
    bool two_way = false;           // its encoder reads both ways (Bahdanau's annotations)
    bool gradient_measured = false; // the attention model has a gradient path (else neither is shown)
    bool url_applied = false;       // the URL's example or date was shown once
    // The probes of `probed` (refresh_probes, only when the probes figure draws): the attention
    // model's occlusion, and [0] the plain model's, [1] the attention model's gradient path for
    // the loss of writing `gradient_target`.
    std::shared_ptr<const Analysis> probed;
    std::shared_ptr<const Occlusion> occlusion;
    std::array<std::shared_ptr<const GradientPath>, 2> gradient;
    std::string gradient_target;
    UrlTable url{"al."};
};
// The date models the two figures read (read_model's rule): [0] plain, [1] attention.
std::array<ModelRead, 2> alignment_models(const Lab& lab, AlignmentState& state);
// Reads the state's map (and a move's) for the string and models shown.
void refresh_alignment(Lab& lab, AlignmentState& state);
FigureSpec alignment_figure(Lab& lab, AlignmentState& state);
FigureSpec probes_figure(Lab& lab, AlignmentState& state);

// The checked figure: which task, which held-out example or typed input (ck.*).
struct CheckedState {
    CheckedState();
    const Task* task = &date_task();   // ck.task
    int example = 0;                   // ck.ex: the held-out example shown while nothing is typed
    std::string typed_text;            // ck.input: the typed input shown, "" for none
    ModelInput typed;                  // its tokens, checked for `task` where it came in
    char field[160] = "";              // the text field (a translation's 14 words fit)
    std::string message;               // why the last typed input was refused ("" = it was not)
    // ck.model: whose map: the shipped attention model, the training figure's attention run or
    // Figure 8's Transformer reading every state, each run once it has an epoch of this task.
    enum class Source { shipped, attention_here, transformer_here };
    Source source = Source::shipped;
    std::shared_ptr<const TaskMap> map;   // the map shown (the Lab's, web/lab/analysis.h)
    std::string model_label;           // which model made it
    std::string error;                 // why there is no map (the model failed to load or decode)
    struct Outline { int row, col; bool sure; };
    std::vector<Outline> outlines;     // the links outlined in the last frame drawn
    ModelRead read;                    // the model whose map and list are shown (model null: none)
    // The list of every held-out pair (held_out_list.cpp): a piece of the input to find, the
    // wrong ones only, and the column it is ranked by (its edits, most first, to begin with).
    char list_filter[64] = "";
    bool list_wrong_only = false;
    int list_sort = 4;                 // held_out_list.cpp's edits column
    bool list_descending = true;
    // Takes `text` as the typed input if `task` can read it, else returns why (nothing changes).
    std::string take(const std::string& text);
    UrlTable url{"ck."};
};
FigureSpec checked_figure(Lab& lab, CheckedState& state);
// Every held-out pair of the task shown, with what `read`'s model writes for it (read.model non-null).
void ShowHeldOutList(Lab& lab, CheckedState& st, const ModelRead& read, float width);
nlohmann::json held_out_list_json(Lab& lab, const CheckedState& st);  // for window.lookback.state
std::string held_out_list_text(Lab& lab, const CheckedState& st);     // for the text alternative

struct ResultsState {
    // The table's columns, in order (figures/results.cpp's `columns` describes each).
    enum Column { origin, run, task, model, width, exact, per_char, bleu, aer, parameters, seconds, column_count };
    ResultsState();
    const Task* rows_task = &date_task();  // the rows shown: one task's, or every task's (null)
    int sort_column = exact;
    bool descending = true;
    std::vector<ResultRow> rows;    // in the shown order
    UrlTable url{"rs."};
};
// A task as the results name it: a reader's own with its size, since the pairs behind its name
// change from visit to visit ("your-pairs (9,999 pairs)").
std::string task_label(const Task& task);
FigureSpec results_figure(Lab& lab, ResultsState& state);

// The Transformer section: the training pair's settings (tf.*), trained at its kind's rate and
// warmup (default_run_settings); the maps' own (tm.*).
struct TransformerTrainingState {
    TransformerTrainingState();
    RunSettings run;  // a Transformer's: width, heads, seed, epochs (its memory is the pair's)
    std::array<RunSettings, 2> configs() const;  // [0] memory first, [1] memory all
    UrlTable url{"tf."};
};
FigureSpec transformer_training_figure(Lab& lab, TransformerTrainingState& state);

struct TransformerMapsState {
    TransformerMapsState();
    TypedInput typed;               // the string shown (the URL's tm.date)
    bool memory_all = true;         // which Transformer: memory all or first
    bool use_live = false;          // the one trained in the page instead of the shipped
    int head = 0;                   // 0: the mean over heads; h: head h (1-based)
    int selected_output = 0;        // the cross-attention row whose bars are shown
    int selected_input = 0;         // the self-attention row whose bars are shown
    Move move;                      // tm.move: a step's attention moved, in the head shown (every
                                    // head under the mean), and the string decoded again
    // Read for typed.input (refresh in figures/transformer.cpp).
    std::shared_ptr<const Analysis> analysis;
    std::shared_ptr<const WhatIf> what_if;  // the move's decoding
    std::string model_label;        // which model made the maps
    UrlTable url{"tm."};
};
FigureSpec transformer_maps_figure(Lab& lab, TransformerMapsState& state);

// The part-2 figures' own state, owned by the app (web/app.cpp) beside the Lab.
struct Lesson2 {
    TrainingState training;
    SweepState sweep;
    AlignmentState alignment;
    CheckedState checked;
    ResultsState results;
    TransformerTrainingState transformer_training;
    TransformerMapsState transformer_maps;
};

// --- a reader's own pairs (docs/own-pairs.md; the page's "Your own pairs" block) ---------------
// What the page is told of a text it was given: the task made, or the refusal.
struct PairsOutcome {
    bool ok = false;
    std::string message;  // describe_pairs' summary, or the refusal ("line 12: ...")
    int line = 0;         // the refused line (1-based), 0 when the refusal names none
    std::string task;     // the task's name once made
    std::string tokens;   // "characters" or "words": what the task was made with (a task file says)
    std::string text;     // the pairs made into the task, when they came from a task file or a link
};
// Makes a task of `text` (make_pairs_task, named own_pairs_name whatever `options` says; a task
// file the page exported, io/task_file.h, brings its own options) and,
// once it is made, puts it in place of the reader's previous task: the runs trained on that one
// are dropped, its record and every figure's pointer to it go, it leaves the table, and the new
// task joins it; the training figure and the checked figure then take it, and the training
// figure's pair is built on it. `select` false (a task kept from the last visit, restored before
// the figures read the page's address): it only joins the table, for a link to choose. Every
// exception is caught: a refusal, or anything else thrown, comes back as the message and changes
// nothing.
PairsOutcome use_own_pairs(Lab& lab, Lesson2& lesson, std::string_view text, PairsOptions options,
                           bool select = true);
// The same for a task sent in a link: the page's address holds `pairs.task` (io/task_file.h's
// link value) in its fragment ("own-pairs&pairs.task=...", without the '#'), or, in a link made
// before the fragment held it, in its query; read through a URL table like every figure's
// setting. `absent` when neither holds one; a refusal names the key and why, and changes nothing.
PairsOutcome use_pairs_link(Lab& lab, Lesson2& lesson, std::string_view query, std::string_view fragment, bool& absent);
// The reader's task as a task file, or "" when there is none.
std::string own_pairs_file(const Lab& lab);
// Its link value, or the reason it has none: no task, or too large for a link (then what a link
// holds). `long_link`: longer than some mail and chat programs pass whole (task_link_mail_chars).
struct PairsLink {
    std::string value, refusal;
    bool long_link = false;
};
PairsLink own_pairs_link(Lab& lab);
// The reader asked the page to forget the pairs: figures' choices of them leave the address
// (own_pairs_in_links) until a task is used again.
void forget_own_pairs_link();

}  // namespace lb::web
