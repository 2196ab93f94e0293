// web/lab/analysis.h — what the map and probe figures show of one string, for one model, kept by
// the Lab (Lab::analyses) so the figures only read it and none of them decodes: its output and
// attention maps (a Transformer's per head too, and its encoder's self-attention); the probes,
// computed only when the probes figure asks (occlusion, the gradient path); a step's attention
// moved and the string decoded again; and the map of one input of any task (TaskMap) that the
// "checked" figure draws against the task's known alignment, teacher-forced on a held-out
// example's target or greedily decoded from what a reader typed.
//
// Legend: T output steps, S input tokens, A heads.
#pragma once
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "data/alignment_scores.h"
#include "data/task.h"
#include "io/predictions_csv.h"
#include "lesson/probes.h"
#include "models/attention_override.h"
#include "models/model.h"

namespace lb::web {

class Run;  // lab.h

// Which weights a figure reads (lab.h's read_model): a run's, or a shipped model when `run` is
// null. `version` tells one set of a run's weights from the next: they arrive into the same
// Model after every epoch.
struct ModelRead {
    const Model* model = nullptr;
    const Run* run = nullptr;
    long version = 0;
};

// A string a model reads: its text and its tokens, checked once where it came in (a typed date
// where it is typed, the held-out split and the lesson's example by the generator).
struct ModelInput {
    std::string text;
    std::vector<int> tokens;
};
// A text's tokens as `vocab` splits it: its characters, or its words.
std::vector<std::string> tokens_of(const Vocabulary& vocab, const std::string& text);
// A string of the generator's (the held-out split, the lesson's example): known to be readable.
ModelInput generated_input(const std::string& text);
ModelInput generated_input(const Task& task, const std::string& text);  // of any task

// One greedy decoding and its maps.
struct Analysis {
    std::string output;                    // greedy decoding, up to the end token
    std::vector<std::string> tokens;       // [T] its tokens (a date's 10 characters)
    std::vector<float> attention;          // [T, S]; a Transformer's cross-attention, mean over heads;
                                           // empty for the plain model
    int heads = 0;                         // A: a Transformer's; else 0
    std::vector<float> head_attention;     // [A, T, S] each head's
    std::vector<float> self_attention;     // [A, S, S] the encoder's: row i = what input i attends to
    std::vector<float> self_mean;          // [S, S] its mean over heads
};

// "What if the decoder had looked elsewhere?": one step's attention moved evenly onto the input
// positions first..last, the string decoded again from there (core/models/counterfactual.h).
struct Move {
    int step = -1;              // the output step whose attention moves; -1: none
    int first = 0, last = 0;    // the input positions it moves onto, evenly
    int head = every_head;      // a Transformer's cross-attention head (0-based), or every head
    bool operator==(const Move&) const = default;
};
struct WhatIf {
    std::string output;         // what the decoder writes after the move
    std::vector<std::string> tokens;  // [T] its tokens
    std::vector<float> attention;  // [T, S] its map: row `step` is the moved weights (a
                                   // Transformer's: the mean over heads)
    int heads = 0;              // A: a Transformer's; else 0
    std::vector<float> head_attention;  // [A, T, S] each head's map after the move
    std::vector<int> changed;   // the output steps whose character changed
    std::string error;          // why the move was refused ("" = it was not); the rest is empty then
};

// One map of a task's model, as the checked figure draws it: rows are output tokens, columns
// input tokens (characters, or a translation's words). Legend here: T rows, S columns.
struct TaskMap {
    std::vector<std::string> rows;         // [T] the target's tokens (forced) or the greedy output's
    std::vector<std::string> columns;      // [S] the input's tokens
    std::vector<float> attention;          // [T, S]; a Transformer's cross-attention, mean over heads
    int heads = 0;                         // A: a Transformer's; else 0
    std::vector<float> head_attention;     // [A, T, S] each head's
    std::string written;                   // what greedy decoding writes from this input
    bool forced = false;                   // teacher-forced on a known target: links and scores below
    std::vector<AlignmentLink> links;      // the example's known alignment (forced only)
    AlignmentCounts scores;                // the map scored against the links (core's score_alignment)
};

// A held-out split's greedy outputs as far as they are decoded: complete once outputs has one
// string per example, and then scored once as rows.
struct HeldOutOutputs {
    std::vector<std::string> outputs;
    size_t total = 0;
    std::string error;  // why decoding stopped (weights that overflow), or ""
    std::vector<PredictionRow> rows;  // once complete: each example with its output, exact and edits
    bool complete() const { return outputs.size() == total; }
};

// The last few of each asked, kept by the weights read, the input and what else was asked (a
// target, a move): asked again, the same object comes back, not computed again. Every `model`
// given must have a non-null model.model that outlives what is kept of it: a run's weights are
// told apart by the run's id and version, a shipped model by its address (the Lab's own, kept).
class Analyses {
public:
    std::shared_ptr<const Analysis> analyse(const ModelRead& model, const ModelInput& input);
    // Every input position blanked in turn (core/lesson/probes.h); any model.
    std::shared_ptr<const Occlusion> occlusion(const ModelRead& model, const ModelInput& input);
    // ‖∂loss/∂h_j‖ for the loss of writing `target`; only a model with has_gradient_path.
    std::shared_ptr<const GradientPath> gradient_path(const ModelRead& model, const ModelInput& input,
                                                      const std::string& target);
    // The move's decoding (a model with attention); a move the core refuses comes back as its
    // message, never thrown.
    std::shared_ptr<const WhatIf> what_if(const ModelRead& model, const ModelInput& input, const Move& move);
    // The teacher-forced map of `example` (a held-out example of the model's task) by a model with
    // attention, scored against its links.
    std::shared_ptr<const TaskMap> forced_task_map(const ModelRead& model, const Example& example);
    // The greedy decoding's map of a reader's input (checked by encode_user_input for the model's
    // task): no links, no scores. Rows: the tokens written before the end token.
    std::shared_ptr<const TaskMap> typed_task_map(const ModelRead& model, const ModelInput& input);

    // The greedy outputs of a task's held-out split (`held_out`, the Lab's) by a model, decoded a
    // slice per call so that no frame waits on the whole split. Kept for the newest model asked;
    // another model starts again.
    const HeldOutOutputs& held_out_outputs(const ModelRead& model, const std::vector<Example>& held_out);

    // How many of each were computed rather than found kept.
    struct Counts {
        long analyses = 0, occlusions = 0, gradient_paths = 0, what_ifs = 0, task_maps = 0;
    };
    const Counts& computed() const { return computed_; }

private:
    struct Weights {
        int run;              // the run's id, or 0: a shipped model
        const Model* model;
        long version;
        bool operator==(const Weights&) const = default;
    };
    static Weights weights_of(const ModelRead& model);
    // The newest last; a computation that throws keeps nothing.
    template <class Key, class Value>
    class Recent {
    public:
        explicit Recent(size_t keep) : keep_(keep) {}
        template <class Make>
        std::shared_ptr<const Value> get(const Key& key, long& computed, Make&& make) {
            for (const auto& [k, value] : kept_)
                if (k == key) return value;
            std::shared_ptr<const Value> value = make();
            ++computed;
            if (kept_.size() == keep_) kept_.erase(kept_.begin());
            kept_.emplace_back(key, value);
            return value;
        }
    private:
        size_t keep_;
        std::vector<std::pair<Key, std::shared_ptr<const Value>>> kept_;
    };
    // The figures ask for four at most at a time (two models, the map and a move).
    Recent<std::tuple<Weights, std::string>, Analysis> analyses_{8};
    Recent<std::tuple<Weights, std::string>, Occlusion> occlusions_{4};
    Recent<std::tuple<Weights, std::string, std::string>, GradientPath> gradient_paths_{8};
    Recent<std::tuple<Weights, std::string, Move>, WhatIf> what_ifs_{4};
    Recent<std::tuple<Weights, std::string, std::string>, TaskMap> task_maps_{8};  // target "": typed
    Counts computed_;
    std::pair<Weights, HeldOutOutputs> held_out_outputs_;
};

}  // namespace lb::web
