// core/data/tasks.cpp — the table of tasks: a new task is its file and one line here.
#include "data/dataset.h"
#include "data/reversal.h"
#include "data/task.h"
#include "data/translation.h"

namespace lb {

const std::vector<const Task*>& tasks() {
    static const std::vector<const Task*> all = {
        &date_task(),
        &reversal_task(),
        &translation_task(),
    };
    return all;
}

}  // namespace lb
