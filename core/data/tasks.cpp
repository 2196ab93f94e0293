// core/data/tasks.cpp — the table of tasks: a new task is its file and one line here; a task made
// while the program runs (a reader's own pairs in the page, a test's) joins it with add_task.
#include <algorithm>
#include <stdexcept>

#include "data/dataset.h"
#include "data/reversal.h"
#include "data/task.h"
#include "data/translation.h"
#include "text/text.h"

namespace lb {

namespace {
std::vector<const Task*>& table() {
    static std::vector<const Task*> all = {
        &date_task(),
        &reversal_task(),
        &translation_task(),
    };
    return all;
}
}  // namespace

const std::vector<const Task*>& tasks() { return table(); }

void add_task(const Task& task) {
    if (task_named(task.name)) throw std::invalid_argument("a task named " + quote_untrusted(task.name) + " is already in the table");
    table().push_back(&task);
}

void remove_task(const Task& task) {
    if (&task == tasks().front()) throw std::invalid_argument("the date task stays in the table");
    std::erase(table(), &task);
}

}  // namespace lb
