// The page's Lab and figures given a task they have never seen (wasm only: they are the page
// module's code). The copy task (tests/copy_task.h) is added to the table at run time, as a
// reader's own task will be, and the Lab and the figures' state take it with nothing to resize:
// its held-out split; the shipped list (assets/shipped.json, answered here from models made by
// the test) naming no model for it, said as such; its alignment sweep read into the task's
// record and its rows in the results; the training figure's pair trained on it (the worker
// client stubbed: the test sends the reports and weights a worker would); the checked figure's
// map of a held-out example, teacher-forced, with the example's links and scores, and of a typed
// input; its runs ranked by the results figure and written to CSV.
//
// A reader's own pairs (figures/own_pairs.cpp's use_own_pairs, the page's lb_use_pairs): a text
// refused at its line changes nothing; one accepted becomes "your-pairs", selected in the
// training and checked figures, the worker client given once the text and options a worker makes
// the same task from, and its runs only their configs; a new text replaces it and its runs.
//
// Also: the probes (occlusion, gradient paths) are computed when the probes figure asks, never
// for the alignment figure's map alone; a shipped file that does not arrive, or holds another
// model, is said by name; a map of the wrong shape is refused before anything is drawn and said
// in its place.
#include <doctest/doctest.h>
#include <emscripten/emscripten.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "../copy_task.h"
#include "../test_helpers.h"
#include "analysis.h"
#include "data/metrics.h"
#include "data/reversal.h"
#include "heatmap.h"
#include "io/safetensors.h"
#include "io/worker_codec.h"
#include "kernels/rng.h"
#include "lab.h"
#include "lesson2.h"
#include "url_setting.h"
#include "map_view.h"

using namespace lb;
using namespace lb::web;

namespace {

// The worker client (web/worker/client.js) as the Lab calls it: it keeps each run's config, how
// many arguments each create had, and every reader's task's source it was given, in order.
EM_JS(void, stub_worker_client, (), {
    Module.lookbackRuns = {
        workers: 1,
        configs: {},
        createArguments: {},
        sources: [],
        create(id, config) { this.configs[id] = config; this.createArguments[id] = arguments.length; },
        task(name, source) { this.sources.push({ name, source }); },
        play() {}, pause() {}, weights() {}, dispose() {}, evaluate() {},
    };
});
// The config the worker client was given for run `id`, as JSON.
EM_JS(int, created_config_js, (int id, char* out, int size), {
    const text = JSON.stringify(Module.lookbackRuns.configs[id]);
    stringToUTF8(text, out, size);
    return lengthBytesUTF8(text);
});
nlohmann::json created_config(int id) {
    std::string text(4096, '\0');
    text.resize(size_t(created_config_js(id, text.data(), int(text.size()))));
    return nlohmann::json::parse(text);
}
EM_JS(int, create_arguments, (int id), { return Module.lookbackRuns.createArguments[id]; });

// The reader's tasks' sources the worker client was given: how many, and the k-th's name and text.
EM_JS(int, given_sources, (), { return Module.lookbackRuns.sources.length; });
EM_JS(int, given_source_js, (int k, int name, char* out, int size), {
    const given = Module.lookbackRuns.sources[k];
    const text = name ? given.name : given.source;
    stringToUTF8(text, out, size);
    return lengthBytesUTF8(text);
});
std::string given_source(int k, bool name = false) {
    std::string text(1 << 16, '\0');
    text.resize(size_t(given_source_js(k, name ? 1 : 0, text.data(), int(text.size()))));
    return text;
}

std::vector<uint8_t> bytes_of(const Model& model) { return encode_safetensors(model_to_safetensors(model)); }
std::vector<uint8_t> bytes_of(const nlohmann::json& json) {
    const std::string text = json.dump();
    return {text.begin(), text.end()};
}

Model small_model(const Task& task, DecoderKind kind, int H = 8) {
    ModelConfig config;
    config.task = &task;
    config.decoder = kind;
    config.H = H;
    return testing::random_model(config, 7);
}

// The site's files as the test makes them; a path it has not got answers as fetch would.
struct Site {
    std::map<std::string, std::vector<uint8_t>> files;
    void serve(Lab& lab) {
        lab.read_asset = [this](const std::string& path, AssetArrived done) {
            const auto found = files.find(path);
            if (found == files.end()) return done(nullptr, 0, (path + " answered HTTP 404").c_str());
            done(found->second.data(), found->second.size(), nullptr);
        };
    }
};

// What `lookback sweep --alignment --task copy` would write, with one model.
nlohmann::json copy_alignment_sweep() {
    const auto spread = [](double v) { return nlohmann::json{{"mean", v}, {"min", v}, {"max", v}}; };
    return {{"task", "copy"}, {"epochs", 5}, {"seeds", {1}}, {"held_out_size", 40},
            {"runs", {{{"model", "attention"}, {"task", "copy"}, {"width", 8}, {"scorer", "additive"}}}},
            {"summary", {{{"model", "attention"}, {"exact", spread(0.9)}, {"per_char", spread(0.95)}, {"parameters", 1234},
                          {"alignment", {{"aer", spread(0.1)}, {"peak_hit_rate", spread(0.9)}, {"peak_near_rate", spread(0.95)},
                                         {"linked_mass", spread(0.8)}}}}}},
            {"diagonal_guess", {{"aer", 0.0}, {"peak_hit_rate", 1.0}, {"peak_near_rate", 1.0}, {"linked_mass", nullptr}}}};
}

// The site the tests open: the lesson's two date models (small, random), an alignment sweep of
// the copy task, and the list naming them.
Site lesson_site() {
    Site site;
    site.files["assets/plain-64.safetensors"] = bytes_of(small_model(date_task(), DecoderKind::plain));
    site.files["assets/attention-64.safetensors"] = bytes_of(small_model(date_task(), DecoderKind::attention));
    site.files["assets/alignment-copy.json"] = bytes_of(copy_alignment_sweep());
    site.files["assets/shipped.json"] = bytes_of(nlohmann::json{
        {"models", {{{"file", "assets/attention-64.safetensors"}, {"settings", {{"model", "attention"}, {"task", "dates"}}}},
                    {{"file", "assets/plain-64.safetensors"}, {"settings", {{"model", "plain"}, {"task", "dates"}}}}}},
        {"alignment_sweeps", {{{"file", "assets/alignment-copy.json"}, {"task", "copy"}}}}});
    return site;
}

// What a worker reports after run `id`'s first epoch, evaluated: a model that copies perfectly.
std::string first_epoch_report(const Task& task, const std::vector<Example>& held_out) {
    WorkerReport r;
    r.losses = {2.0f, 1.5f};
    r.steps = 2;
    r.epoch = 1;
    r.examples = 128;
    r.fraction = 1.0 / 12;
    r.train_seconds = 0.5;
    std::vector<std::string> predictions;
    for (const Example& ex : held_out) predictions.push_back(ex.target);
    r.metrics = evaluate_predictions(task, held_out, predictions);
    r.epochs = {EpochRecord{1, 1.75f, float(r.metrics->exact), float(r.metrics->per_char)}};
    return worker_report_to_json(r).dump();
}

}  // namespace

TEST_CASE("Lab: a fourth task added at run time is held out, checked, trained, mapped and ranked with nothing to resize") {
    const testing::CopyTaskInTable in_table;  // before the Lab and the figures, which read the table
    const Task& copy = testing::copy_task();
    stub_worker_client();
    Site site = lesson_site();
    Lab lab;
    site.serve(lab);
    lab.start_loading();

    // Its held-out split: the task's own, drawn once.
    const std::vector<Example>& held_out = lab.held_out(copy);
    REQUIRE(held_out.size() == size_t(copy.held_out_size));
    const Splits drawn = copy.make_splits(1, 0, copy.held_out_size);
    for (size_t i = 0; i < held_out.size(); ++i) CHECK(held_out[i].input == drawn.held_out[i].input);
    CHECK(&lab.held_out(copy) == &held_out);

    // Nothing shipped for it but its sweep: said, not waited for; the sweep read into its record.
    CHECK(lab.attention_model(copy) == nullptr);
    CHECK(lab.attention_model_note(copy) == "No attention model for copy was shipped");
    const AlignmentSweep& sweep = lab.alignment_sweep(copy);
    CHECK(sweep.note == "");
    REQUIRE(sweep.rows.size() == 2);
    CHECK(sweep.rows[0].model == "attention");
    CHECK(sweep.rows[0].aer == doctest::Approx(0.1));
    CHECK(sweep.rows[1].model == "diagonal guess");
    CHECK(lab.alignment_sweep(reversal_task()).note == "no alignment sweep was shipped for it");

    CheckedState checked;  // ck.task=copy is a choice
    checked.url.read("ck.task=copy");
    CHECK(checked.url.messages().empty());
    REQUIRE(checked.task == &copy);
    const FigureSpec checked_spec = checked_figure(lab, checked);
    nlohmann::json s = checked_spec.state();
    CHECK(s["task"] == "copy");
    CHECK(s["unavailable"] == "No attention model for copy was shipped. Train one in Figure 3, or the Transformers in Figure 8: "
                              "its map shows here after its first epoch.");
    CHECK(s["table"].size() == 2);
    CHECK(s["table_note"] == "");

    // The training figure's pair on it: the worker is asked for runs of the copy task.
    TrainingState training;  // its link names the task, as a reader's would
    training.url.read("tr.task=copy&tr.width=8");
    CHECK(training.url.messages().empty());
    lab.build(lab.live, training.configs());
    for (size_t k = 0; k < 2; ++k) {
        REQUIRE(lab.live[k]);
        CHECK(lab.live[k]->config().model.task == &copy);
        CHECK(created_config(lab.live[k]->id())["task"] == "copy");
    }
    const nlohmann::json training_state = training_figure(lab, training).state();
    CHECK(training_state.dump().find("\"copy\"") != std::string::npos);

    // An epoch and its weights come back, as a worker sends them.
    const Run& run = *lab.live[1];
    lab.run_reported(run.id(), first_epoch_report(copy, held_out));
    const std::vector<uint8_t> weights = bytes_of(small_model(copy, run.config().model.decoder));
    lab.run_weights(run.id(), weights.data(), weights.size());
    REQUIRE(trained(lab.live[1], copy));

    // The checked figure reads that run (no model was shipped for the task) and maps example 3.
    checked.example = 3;
    s = checked_spec.state();
    CHECK(s["model"] == "page");
    CHECK(s["unavailable"] == "");
    CHECK(s["forced"] == true);
    const Example& shown = held_out[3];
    const size_t T = shown.target.size(), S = shown.input.size();
    REQUIRE(s["rows"].size() == T);
    REQUIRE(s["columns"].size() == S);
    for (size_t t = 0; t < T; ++t) CHECK(s["rows"][t] == std::string(1, shown.target[t]));
    REQUIRE(s["weights"].size() == T);
    for (const auto& row : s["weights"]) {
        REQUIRE(row.size() == S);
        double sum = 0;
        for (double w : row) sum += w;
        CHECK(sum == doctest::Approx(1).epsilon(1e-4));
    }
    REQUIRE(s["links"].size() == shown.alignment.size());
    for (size_t k = 0; k < shown.alignment.size(); ++k) {
        CHECK(s["links"][k]["output"] == shown.alignment[k].output);
        CHECK(s["links"][k]["input"] == shown.alignment[k].input);
    }
    CHECK(s["scores"]["steps"] == int(T));  // every row of a copy has its link
    const long maps = lab.analyses.computed().task_maps;
    checked_spec.state();
    CHECK(lab.analyses.computed().task_maps == maps);  // read again, not computed again

    CHECK(checked.take("edcba") == "");
    s = checked_spec.state();
    CHECK(s["typed"] == true);
    CHECK(s["forced"] == false);
    CHECK(s["columns"].size() == 5);
    CHECK(checked.take("abcd!").find("'!'") != std::string::npos);  // refused by the task's own vocabulary

    // Its rows in the results: the page's run and the sweep's, ranked on their own and in the CSV.
    ResultsState results;
    results.rows_task = &copy;
    const nlohmann::json r = results_figure(lab, results).state();
    REQUIRE(r["rows"].size() == 2);
    std::vector<std::string> labels;
    for (const auto& row : r["rows"]) {
        CHECK(row["task"] == "copy");
        CHECK(row["task_label"] == "copy");  // a task of the table's own: its name alone
        labels.push_back(row["run"]);
    }
    CHECK(std::count(labels.begin(), labels.end(), "training (1/12 ep.)") == 1);
    CHECK(std::count(labels.begin(), labels.end(), "alignment sweep, 1 seeds") == 1);
    CHECK(Lab::results_csv(lab.results()).find("this page,training (1/12 ep.),copy,") != std::string::npos);
}

TEST_CASE("Lab: the probes are computed when the probes figure asks, never for the map alone") {
    stub_worker_client();
    Site site = lesson_site();
    Lab lab;
    site.serve(lab);
    lab.start_loading();
    AlignmentState st;
    const FigureSpec alignment = alignment_figure(lab, st), probes = probes_figure(lab, st);

    const nlohmann::json map = alignment.state();
    REQUIRE(map["weights"].size() == size_t(output_length));
    CHECK(lab.analyses.computed().analyses == 1);
    CHECK(lab.analyses.computed().occlusions == 0);
    CHECK(lab.analyses.computed().gradient_paths == 0);
    CHECK(probes.text_alternative().find("computed when this figure is next drawn") != std::string::npos);

    const nlohmann::json probed = probes.state();
    CHECK(probed["importance"].size() == size_t(output_length));
    CHECK(probed["grad_norms"]["plain"].size() == st.shown.tokens.size());
    CHECK(probed["grad_norms"]["attention"].size() == st.shown.tokens.size());
    CHECK(lab.analyses.computed().occlusions == 1);
    CHECK(lab.analyses.computed().gradient_paths == 2);  // the plain model's and the attention model's
    CHECK(probes.text_alternative().find("<table>") != std::string::npos);

    // Another string for the map: its map only, until the probes figure asks again.
    st.shown = generated_input("3 april 1999");
    alignment.state();
    CHECK(lab.analyses.computed().analyses == 2);
    CHECK(lab.analyses.computed().occlusions == 1);
    CHECK(lab.analyses.computed().gradient_paths == 2);
}

TEST_CASE("Lab: a shipped file that does not arrive or holds another model is said by name; a bad entry is skipped") {
    stub_worker_client();
    Site site = lesson_site();
    site.files.erase("assets/plain-64.safetensors");
    site.files["assets/attention-64.safetensors"] = bytes_of(small_model(reversal_task(), DecoderKind::attention));
    site.files["assets/shipped.json"] = bytes_of(nlohmann::json{
        {"models", {{{"file", "assets/attention-64.safetensors"}, {"settings", {{"model", "attention"}}}},
                    {{"file", "assets/plain-64.safetensors"}, {"settings", {{"model", "plain"}}}},
                    {{"file", "assets/gpt.safetensors"}, {"settings", {{"model", "gpt"}}}}}},
        {"alignment_sweeps", nlohmann::json::array()}});
    Lab lab;
    site.serve(lab);
    lab.start_loading();
    CHECK(lab.shipped.size() == 2);
    CHECK(lab.shipped_model(date_task(), DecoderKind::attention) == nullptr);
    CHECK(lab.shipped_errors(date_task(), {DecoderKind::plain, DecoderKind::attention}) ==
          "The shipped plain model could not be loaded: assets/plain-64.safetensors answered HTTP 404. "
          "The shipped attention model could not be loaded: the file holds another model.");
    CHECK(lab.shipped_list_note.find("gpt.safetensors") != std::string::npos);
    CHECK(lab.shipped_note(date_task(), DecoderKind::transformer, Memory::all).starts_with("No Transformer (all states) was shipped"));
    CHECK(!lab.checking_shipped());
}

TEST_CASE("map view: a matrix of the wrong shape is refused before anything is drawn, and said in the map's place") {
    CHECK_THROWS_WITH_AS(check_map_shape("map", 80, 10, 9), "map 'map' has 80 values for 10 \u00d7 9 cells", MapShapeError);
    CHECK_NOTHROW(check_map_shape("map", 90, 10, 9));
    const std::vector<float> short_map(80, 0.1f);
    CHECK_THROWS_AS(Heatmap("map", short_map, 10, 9, {90, 100}, Colormap::sequential, 0, 1), MapShapeError);

    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = {800, 600};
    unsigned char* pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ImGui::NewFrame();
    ImGui::Begin("figure");
    int selected = 0;
    const Tokens rows = char_tokens("1999-04-03"), cols = char_tokens("3 april 1999");
    const bool wrong = ShowMapOrError("map", [&] {
        ShowWeightMap({"map", "out-", "output"}, rows, cols, short_map, selected, 400, "a map");
    });
    const ImVec2 said = ImGui::GetItemRectSize();
    const std::vector<float> whole(rows.size() * cols.size(), 1.0f / float(cols.size()));
    const bool right = ShowMapOrError("map", [&] {
        ShowWeightMap({"map", "out-", "output"}, rows, cols, whole, selected, 400, "a map");
    });
    ImGui::End();
    ImGui::EndFrame();
    ImGui::DestroyContext();
    CHECK(!wrong);
    CHECK(said.y > 0);  // the refusal's text took the map's place
    CHECK(right);
}

namespace {

// `count` distinct inputs of the letters a-e (the numbers from `offset` in base 5), each to its
// reverse; with `aligned`, the reversal's links in the Pharaoh form (input n-1-t to output t).
std::string reversal_pairs(int count, int offset, bool aligned) {
    std::string text;
    for (int i = 0; i < count; ++i) {
        std::string input;
        for (int v = i + offset; v > 0; v /= 5) input.insert(input.begin(), char('a' + v % 5));
        const std::string output(input.rbegin(), input.rend());
        text += input + "\t" + output;
        if (aligned) {
            text += "\t";
            for (int t = 0; t < int(output.size()); ++t)
                text += (t ? " " : "") + std::to_string(int(input.size()) - 1 - t) + "-" + std::to_string(t);
        }
        text += "\n";
    }
    return text;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("own pairs: a reader's text becomes the page's task and its workers' source; a refusal changes nothing; a new text replaces it") {
    stub_worker_client();
    Lab lab;
    Lesson2 lesson;
    const size_t table = tasks().size();
    lab.build(lab.live, lesson.training.configs());  // the training figure has drawn: its pair is on the date task
    const int date_run = lab.live[0]->id();

    // Refused at its line: nothing made, nothing moved.
    const std::string text = reversal_pairs(150, 25, true);
    std::string bad = text;
    size_t third = 0;
    for (int k = 0; k < 3; ++k) third = bad.find('\n', third) + 1;
    bad.insert(third, "no separator here\n");
    PairsOutcome out = use_own_pairs(lab, lesson, bad, {});
    CHECK_FALSE(out.ok);
    CHECK(out.line == 4);
    CHECK(out.message.rfind("line 4: ", 0) == 0);
    CHECK(tasks().size() == table);
    CHECK_FALSE(lab.own_task);
    CHECK(lesson.training.run.model.task == &date_task());
    CHECK(lab.live[0]->id() == date_run);

    // Made: 150 distinct pairs, 10 % held out, the letters a-e on both sides.
    out = use_own_pairs(lab, lesson, text, {});
    REQUIRE(out.ok);
    CHECK(out.task == "your-pairs");
    CHECK(contains(out.message, "150 pairs read"));
    CHECK(contains(out.message, "135 to train, 15 held out"));
    CHECK(contains(out.message, "5 input and 5 output characters"));
    CHECK(contains(out.message, "alignments given"));
    CHECK(tasks().size() == table + 1);
    const Task& made = find_task("your-pairs");
    REQUIRE(lab.own_task);
    CHECK(&made == &lab.own_task->task);
    CHECK(made.train_size == 135);
    CHECK(made.held_out_size == 15);
    CHECK(lesson.training.run.model.task == &made);
    CHECK(lesson.checked.task == &made);
    // The figures were made before the task, as in the page: their links name it all the same (it
    // was written 'ck.task=', which the next visit refused), and a link naming it is read back,
    // its example checked against this task's 15 held-out pairs.
    CHECK(lesson.checked.url.query() == "ck.task=your-pairs");
    lesson.results.rows_task = &made;
    CHECK(lesson.results.url.query() == "rs.task=your-pairs");
    lesson.results.url.read("rs.task=all");
    CHECK(lesson.results.rows_task == nullptr);
    lesson.checked.url.read("ck.task=dates&ck.ex=20");
    CHECK(lesson.checked.url.messages().empty());
    CHECK(lesson.checked.task == &date_task());
    lesson.checked.url.read("ck.task=your-pairs&ck.ex=14");
    CHECK(lesson.checked.url.messages().empty());
    CHECK(lesson.checked.task == &made);
    CHECK(lesson.checked.example == 14);
    lesson.checked.url.read("ck.ex=15&ck.task=chess");
    REQUIRE(lesson.checked.url.messages().size() == 2);
    CHECK(lesson.checked.url.messages()[0] == "The link's ck.task='chess' is not usable (ck.task takes one of dates, reversal, "
                                               "translation or your-pairs), so the figure uses 'your-pairs'.");
    CHECK(lesson.checked.url.messages()[1] == "The link's ck.ex='15' is not usable (ck.ex takes a whole number from 0 to 14), "
                                               "so the figure uses '14'.");
    lesson.checked.example = 0;
    REQUIRE(lab.live.built());
    for (size_t k = 0; k < 2; ++k) {
        CHECK(lab.live[k]->config().model.task == &made);
        CHECK(created_config(lab.live[k]->id()).at("task") == "your-pairs");
    }
    // Each held-out pair is a reversal with the reversal's links (checked here, not by the reader).
    const std::vector<Example>& held = lab.held_out(made);
    REQUIRE(held.size() == 15);
    for (const Example& ex : held) {
        CHECK(ex.target == std::string(ex.input.rbegin(), ex.input.rend()));
        REQUIRE(ex.alignment.size() == ex.input.size());
        for (int t = 0; t < int(ex.target.size()); ++t) {
            CHECK(ex.alignment[size_t(t)].output == t);
            CHECK(ex.alignment[size_t(t)].input == int(ex.input.size()) - 1 - t);
            CHECK(ex.alignment[size_t(t)].sure);
        }
    }
    // The worker client is given the text and options once, the task's name with them, and each
    // run only its config; a worker makes the same task from them: the same split.
    REQUIRE(given_sources() == 1);
    CHECK(given_source(0, true) == "your-pairs");
    const std::string source = given_source(0);
    const std::string own_source = pairs_source_to_json(lab.own_task_source).dump();
    CHECK(source == own_source);
    for (size_t k = 0; k < 2; ++k) CHECK(create_arguments(lab.live[k]->id()) == 2);  // the run's id and config
    lab.build(lab.live, lesson.training.configs());  // a new pair on the same task
    CHECK(given_sources() == 1);
    PairsTaskSource sent = pairs_source_from_json(nlohmann::json::parse(source));
    CHECK(sent.text == text);
    CHECK(sent.options.name == "your-pairs");
    CHECK(sent.options.tokens == PairsTokens::characters);
    CHECK(sent.options.split_seed == 1);
    CHECK(pairs_source_to_json(sent).dump() == source);
    sent.options.name = "worker-copy";  // the worker's own table has no your-pairs here
    const PairsTask again = make_pairs_task(sent.text, sent.options);
    const Splits theirs = again.task.make_splits(1, again.task.train_size, again.task.held_out_size);
    const Splits ours = made.make_splits(1, made.train_size, made.held_out_size);
    REQUIRE(theirs.train.size() == ours.train.size());
    REQUIRE(theirs.held_out.size() == ours.held_out.size());
    for (size_t i = 0; i < ours.held_out.size(); ++i) CHECK(theirs.held_out[i].input == ours.held_out[i].input);
    CHECK(again.task.input.tokens() == made.input.tokens());
    CHECK(again.task.output.tokens() == made.output.tokens());
    // A bad message for a worker is refused by key.
    CHECK_THROWS_AS(pairs_source_from_json(nlohmann::json{{"text", "x"}}), std::invalid_argument);
    CHECK_THROWS_AS(pairs_source_from_json(nlohmann::json::parse(R"({"text":"x","name":"n","tokens":"bytes","format":"tsv","split_seed":1,"held_out":0,"drop_duplicates":true})")),
                    std::invalid_argument);
    nlohmann::json negative = nlohmann::json::parse(source);
    negative["held_out"] = -1;
    CHECK_THROWS_WITH_AS(pairs_source_from_json(negative), "a reader's task's held_out must be a whole number, at least 0",
                         std::invalid_argument);

    // Refused now: the task, its runs, the figures' choices and the workers' source stay.
    const int kept_run = lab.live[0]->id();
    out = use_own_pairs(lab, lesson, "only\tone pair\n", {});
    CHECK_FALSE(out.ok);
    CHECK(&find_task("your-pairs") == &made);
    CHECK(lab.live[0]->id() == kept_run);
    CHECK(given_sources() == 1);
    CHECK(lesson.training.run.model.task == &made);
    out = use_own_pairs(lab, lesson, std::string("abc\tcba\n\xff\xfe\tx\n"), {});
    CHECK_FALSE(out.ok);
    CHECK(out.line == 2);
    CHECK(lab.live[0]->id() == kept_run);

    // Replaced: the old task's runs go, the new one takes its name and its place, and the worker
    // client is given its source, once.
    out = use_own_pairs(lab, lesson, reversal_pairs(120, 300, false), {});
    REQUIRE(out.ok);
    CHECK(contains(out.message, "108 to train, 12 held out"));
    CHECK(tasks().size() == table + 1);
    const Task& replaced = find_task("your-pairs");
    CHECK(&replaced == &lab.own_task->task);
    CHECK(replaced.train_size == 108);
    CHECK(lab.held_out(replaced).size() == 12);
    REQUIRE(lab.live.built());
    CHECK(lab.live[0]->id() != kept_run);
    CHECK(lab.live[0]->config().model.task == &replaced);
    CHECK(lesson.training.run.model.task == &replaced);
    CHECK(lesson.checked.task == &replaced);
    REQUIRE(given_sources() == 2);
    CHECK(given_source(1, true) == "your-pairs");
    CHECK(given_source(1) == pairs_source_to_json(lab.own_task_source).dump());
    CHECK(pairs_source_from_json(nlohmann::json::parse(given_source(1))).text == reversal_pairs(120, 300, false));
    CHECK(lab.own_task_source.options.tokens == PairsTokens::characters);
}

TEST_CASE("own pairs: the task leaves as a file and a link and comes back the same; a link too large or broken is refused") {
    stub_worker_client();
    std::string file;
    PairsLink link;
    std::vector<std::string> held;
    {
        Lab lab;  // one page at a time: each puts its task in the one table under the same name
        Lesson2 lesson;
        CHECK(own_pairs_file(lab).empty());
        CHECK(own_pairs_link(lab).refusal == "There are no pairs of yours to link to.");
        PairsOptions options;
        options.split_seed = 5;
        REQUIRE(use_own_pairs(lab, lesson, reversal_pairs(150, 25, true), options).ok);
        CHECK(task_label(lab.own_task->task) == "your-pairs (150 pairs)");  // 135 to train, 15 held out
        for (const Example& e : lab.held_out(lab.own_task->task)) held.push_back(e.input);
        file = own_pairs_file(lab);
        link = own_pairs_link(lab);
        REQUIRE(link.refusal.empty());

        CHECK_FALSE(link.long_link);  // 1.5 KB: whole through any mail
        CHECK(own_pairs_in_links);
        CHECK(contains(lesson.training.url.query(), "tr.task=your-pairs"));  // the figure names it: the link carries it

        // 5,000 pairs of 40 random letters do not fit in a link: it says what a link holds, and
        // the figures no longer name the task in the address (they still train on it).
        Rng rng(3);
        std::string large;
        for (int i = 0; i < 5000; ++i) {
            std::string s(40, ' ');
            for (char& c : s) c = char('a' + rng.below(26));
            large += s + "\t" + std::string(s.rbegin(), s.rend()) + "\n";
        }
        REQUIRE(use_own_pairs(lab, lesson, large, {}).ok);
        const PairsLink too_large = own_pairs_link(lab);
        CHECK(too_large.value.empty());
        CHECK(too_large.refusal ==
              "No link for these pairs: compressed, they pass the 150,000 bytes a link holds. Save as a file and send that "
              "instead: it opens here by Open a file, or dropped on this block.");
        CHECK_FALSE(own_pairs_in_links);
        CHECK(lesson.training.run.model.task == &lab.own_task->task);
        CHECK_FALSE(contains(lesson.training.url.query(), "task="));
        CHECK_FALSE(contains(lesson.checked.url.query(), "task="));
        // Small pairs again: named, and linked, again; forgotten, no longer named.
        REQUIRE(use_own_pairs(lab, lesson, reversal_pairs(150, 25, true), options).ok);
        CHECK(contains(lesson.training.url.query(), "tr.task=your-pairs"));
        forget_own_pairs_link();
        CHECK_FALSE(contains(lesson.training.url.query(), "task="));
        CHECK(own_pairs_link(lab).value == link.value);  // a link asked for still holds them
    }
    const auto same_split = [&](Lab& lab) {
        std::vector<std::string> inputs;
        for (const Example& e : lab.held_out(lab.own_task->task)) inputs.push_back(e.input);
        CHECK(inputs == held);
        CHECK(lab.own_task_source.options.split_seed == 5);
    };
    {
        // The file, opened in another page: the same pairs, seed and split.
        Lab other;
        Lesson2 lesson;
        const PairsOutcome out = use_own_pairs(other, lesson, file, {});  // the file's options, not these
        REQUIRE(out.ok);
        CHECK(out.text == reversal_pairs(150, 25, true));
        CHECK(out.tokens == "characters");
        same_split(other);
    }
    {
        // The link, read from an address's fragment after its anchor, figures' keys in the query.
        Lab linked;
        Lesson2 lesson;
        bool absent = true;
        PairsOutcome out = use_pairs_link(linked, lesson, "?tr.width=16&ck.example=2", "own-pairs&pairs.task=" + link.value, absent);
        REQUIRE(out.ok);
        CHECK_FALSE(absent);
        CHECK(out.text == reversal_pairs(150, 25, true));
        CHECK(lesson.training.run.model.task == &linked.own_task->task);  // chosen in Figure 3
        same_split(linked);
        out = use_pairs_link(linked, lesson, "?tr.width=16", "own-pairs", absent);
        CHECK(absent);
        CHECK_FALSE(out.ok);
        // A link made before the fragment held the pairs: in the query.
        out = use_pairs_link(linked, lesson, "?tr.width=16&pairs.task=" + link.value + "&ck.example=2", "", absent);
        REQUIRE(out.ok);
        CHECK(out.text == reversal_pairs(150, 25, true));
        // A broken link is refused by its key and changes nothing.
        const Task* kept = &linked.own_task->task;
        out = use_pairs_link(linked, lesson, "", "pairs.task=" + link.value.substr(0, link.value.size() / 2 / 4 * 4), absent);
        CHECK_FALSE(absent);
        CHECK_FALSE(out.ok);
        CHECK(contains(out.message, "pairs.task"));
        CHECK(contains(out.message, "does not decompress"));
        CHECK(&linked.own_task->task == kept);
        out = use_pairs_link(linked, lesson, "?pairs.tusk=1", "", absent);
        CHECK_FALSE(out.ok);
        CHECK(contains(out.message, "pairs.tusk"));
    }
    {
        // A link that chose the reader's task without carrying it, where no pairs were used: each
        // figure says so, not that the task is unknown, and keeps its default.
        Lesson2 lesson;
        REQUIRE(task_named(own_pairs_name) == nullptr);
        lesson.training.url.read("?tr.task=your-pairs");
        lesson.checked.url.read("?ck.task=your-pairs");
        CHECK(lesson.training.run.model.task == &date_task());
        for (const UrlTable* url : {&lesson.training.url, &lesson.checked.url}) {
            REQUIRE(url->messages().size() == 1);
            CHECK(url->messages()[0] ==
                  "This link chose the sender's own pairs (" + url->prefix() + "task=your-pairs), but did not carry them (they were too "
                  "large for a link, or the link was cut): ask the sender for the task file (Save as a file in \u201cYour own pairs\u201d). "
                  "Until then the figure shows its default.");
        }
        lesson.training.url.read("?tr.task=yours");  // another unknown name: the table's own words
        CHECK(contains(lesson.training.url.messages()[0], "is not usable (tr.task takes"));
    }
}
