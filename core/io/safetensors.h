// core/io/safetensors.h — weights on disk in the safetensors format, so a trained
// model opens in PyTorch or numpy with no converter.
//
// The format (huggingface/safetensors):
//   8 bytes     N, the header's length, unsigned 64-bit little-endian
//   N bytes     a JSON object: for each tensor
//                 "name": {"dtype": "F32", "shape": [..], "data_offsets": [begin, end]}
//               and optionally "__metadata__": {string: string}
//   the rest    the data: each tensor's bytes, little-endian, row-major, at
//               [begin, end) counted from the first byte after the header;
//               the tensors cover it exactly, with no gap and no overlap.
// The writer pads the header with spaces to a multiple of 8 bytes (as the
// reference implementation does) so the data is aligned.
//
// Only F32 is read or written. Every malformed file is refused with a
// SafetensorsError whose message says what is wrong; nothing is returned or
// changed on failure.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/task.h"

namespace lb {

struct Model;  // model.h

struct SafetensorsError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct StoredTensor {
    std::string name;
    std::vector<int64_t> shape;  // [] is a scalar (one value)
    std::vector<float> data;     // row-major, product(shape) values
};

struct SafetensorsContent {
    std::map<std::string, std::string> metadata;  // "__metadata__"
    std::vector<StoredTensor> tensors;            // in the file's data order
    const StoredTensor* find(const std::string& name) const;  // nullptr if absent
};

// Bytes of a file; throws std::invalid_argument for a duplicate or empty name,
// the reserved name "__metadata__", or data that does not match its shape.
std::vector<uint8_t> encode_safetensors(const SafetensorsContent& content);
// Parses and checks a whole file; throws SafetensorsError.
SafetensorsContent decode_safetensors(const uint8_t* bytes, size_t size);

// The largest file read_safetensors_file reads: 256 MiB, about four times a
// width-1024 attention model (the widest the CLI trains, 17.8 M parameters =
// 71 MB), so a hostile or mistaken path cannot make us read without end.
constexpr uint64_t max_weights_file_bytes = uint64_t(256) << 20;

// Writes through a temporary file renamed into place (no half-written file
// under the real name); throws SafetensorsError if the file cannot be written.
void write_safetensors_file(const std::string& path, const SafetensorsContent& content);
// Reads a regular file of at most max_weights_file_bytes (anything else — a
// folder, a device, a FIFO — is refused before it is opened) and decodes it.
SafetensorsContent read_safetensors_file(const std::string& path);

// Checks that every expected tensor is present with exactly its shape (and,
// unless allow_extra, that there is nothing else); throws SafetensorsError
// naming the first missing, misshapen or unexpected tensor.
struct ExpectedTensor {
    std::string name;
    std::vector<int64_t> shape;
};
void check_tensors(const SafetensorsContent& content, const std::vector<ExpectedTensor>& expected,
                   bool allow_extra = false);

// --- a model's weights file --------------------------------------------------
// Tensors are model.h's named_tensors, under their PyTorch-style names. The
// metadata records "format" ("lookback-1") and the settings schema's fields that
// build the model (settings/run_settings.h's in_weights: "model", "width"; "scorer" for
// the kinds that score, "none" for the others; "input_feeding" 0|1 for luong and
// luong-local; "memory", "heads" and "ffn" for a transformer; "task", and the date
// task's "formats" and "field_order", when not the defaults), written and read
// through the schema, so a file's bounds are the command line's; plus any extra
// entries given (seed, epochs, ...).
SafetensorsContent model_to_safetensors(const Model& model,
                                        const std::map<std::string, std::string>& extra = {});
void save_model(const std::string& path, const Model& model,
                const std::map<std::string, std::string>& extra = {});
// Builds the model the metadata describes and fills it from the tensors,
// checking names and shapes against that configuration.
Model model_from_safetensors(const SafetensorsContent& content);
Model load_model(const std::string& path);
Model load_model(const uint8_t* bytes, size_t size);
// Replaces model's weights with the file's; the file must describe the same
// configuration. On any error model is left exactly as it was.
void load_weights_into(Model& model, const SafetensorsContent& content);

// A model of a reader's task (data/pairs.h, carried_in_weights) carries the task in its metadata,
// so that it decodes where no table has the task: "task_tokens" (characters or words),
// "task_input" and "task_output" (the vocabularies' own tokens in id order, JSON arrays),
// "task_longest_input", "task_output_steps" and "task_example". model_to_safetensors writes them.
// This reads them: nullopt when the file carries no task, SafetensorsError when what it carries
// is malformed or could not have been made from pairs. The caller puts the task in the table
// (add_task) before model_from_safetensors, which reads the task by name.
std::optional<Task> task_in_weights(const SafetensorsContent& content);

}  // namespace lb
