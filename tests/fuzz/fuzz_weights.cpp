// Fuzz target: the weights loader (safetensors bytes → a model). The contract:
// a file is refused only with SafetensorsError, whose message is valid UTF-8;
// a model that loads has a width the CLI can make and only finite weights.
// Any other exception escapes and libFuzzer reports it as a crash.
#include <cmath>
#include <cstdlib>

#include "models/model.h"
#include "io/safetensors.h"
#include "text/text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const lb::Model model = lb::load_model(data, size);
        if (model.config.H < 1 || model.config.H > 1024) std::abort();
        for (const lb::ConstNamedTensor& t : lb::named_tensors(model.params))
            for (size_t i = 0; i < t.size; ++i)
                if (!std::isfinite(t.data[i])) std::abort();
    } catch (const lb::SafetensorsError& e) {
        if (!lb::is_valid_utf8(e.what())) std::abort();
    }
    return 0;
}
