// web/page/lesson_selfcheck.js — the self-check (<section id="self-check"> of index.html).
//
// Concept questions are plain HTML forms whose right answer is in data-answer; without
// JavaScript their explanations still open by hand (<details>). Computation questions come from
// the wasm module (web/figures/selfcheck.cpp), which makes fresh numbers and checks typed answers
// with core/lesson/selfcheck.h; it announces itself as window.lookbackSelfCheck and the event
// "lookback:selfcheck". The score counts the first answer to each question, while the page is
// open. State for tests: each form's data-result ("right", "wrong" or "invalid").
'use strict';
(() => {
  const section = document.getElementById('self-check');
  if (!section) return;
  section.classList.add('is-live');  // shows the Check buttons, which do nothing without JavaScript

  const score = { concepts: { right: 0, answered: 0 }, computations: { right: 0, answered: 0 } };
  const scoreLine = section.querySelector('.quiz-score');
  function count(kind, right) {
    score[kind].answered += 1;
    if (right) score[kind].right += 1;
    const { concepts: a, computations: b } = score;
    scoreLine.textContent = `Your score so far: ${a.right} of ${a.answered} concept questions ` +
      `and ${b.right} of ${b.answered} computations right.`;
    scoreLine.dataset.right = String(a.right + b.right);
    scoreLine.dataset.answered = String(a.answered + b.answered);
  }

  // --- concept questions ------------------------------------------------------------------
  for (const form of section.querySelectorAll('form.concept')) {
    const verdict = form.querySelector('.verdict');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const chosen = form.querySelector('input[type="radio"]:checked');
      if (!chosen) {
        verdict.textContent = 'Choose one of the answers first.';
        return;
      }
      const right = chosen.value === form.dataset.answer;
      if (!form.dataset.result) count('concepts', right);
      form.dataset.result = right ? 'right' : 'wrong';
      for (const label of form.querySelectorAll('label')) label.classList.remove('is-right', 'is-wrong', 'is-answer');
      chosen.closest('label').classList.add(right ? 'is-right' : 'is-wrong');
      form.querySelector(`input[value="${form.dataset.answer}"]`).closest('label').classList.add('is-answer');
      verdict.textContent = right ? 'Right.' : `Not this one: the answer is ${form.dataset.answer}.`;
      verdict.className = `verdict ${right ? 'is-right' : 'is-wrong'}`;
      form.querySelector('details').open = true;
    });
  }

  // --- computation questions (need the module) --------------------------------------------
  const computations = [...section.querySelectorAll('form.computation')];
  function ask(core, form) {
    const question = core.ask(Number(form.dataset.kind));
    form.querySelector('.prompt').textContent =
      `${question.prompt} Answers within ±${question.tolerance} of the exact value count as right.`;
    const input = form.querySelector('input');
    input.value = '';
    input.disabled = false;
    form.querySelector('button[type="submit"]').disabled = false;
    delete form.dataset.result;
    delete form.dataset.counted;
    const verdict = form.querySelector('.verdict');
    verdict.textContent = '';
    verdict.className = 'verdict';
  }
  function attach(core) {
    for (const form of computations) {
      const verdict = form.querySelector('.verdict');
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        const result = core.check(Number(form.dataset.kind), form.querySelector('input').value);
        if (!result.valid) {
          form.dataset.result = 'invalid';
          verdict.textContent = result.message;
          verdict.className = 'verdict is-invalid';
          return;
        }
        if (!form.dataset.counted) count('computations', result.correct);
        form.dataset.counted = 'yes';
        form.dataset.result = result.correct ? 'right' : 'wrong';
        const word = document.createElement('strong');
        word.textContent = result.correct ? 'Right.' : 'Not quite.';
        verdict.replaceChildren(word, ` The working: ${result.working}`);
        verdict.className = `verdict ${result.correct ? 'is-right' : 'is-wrong'}`;
      });
      form.querySelector('.fresh').addEventListener('click', () => {
        ask(core, form);
        form.querySelector('input').focus();
      });
      ask(core, form);
    }
    section.dataset.computations = 'ready';
  }
  for (const form of computations) {
    form.querySelector('input').disabled = true;  // until the module has made a question
    form.querySelector('button[type="submit"]').disabled = true;
  }
  // The module offers the self-check while it starts; the questions are made in the next task,
  // after the figures near the viewport have started (15 cold loads: ~0.1 s sooner to the first
  // figure). Made any later, when idle, a link into the self-check waited ~0.8 s for them.
  if (window.lookbackSelfCheck) attach(window.lookbackSelfCheck);
  else window.addEventListener('lookback:selfcheck', () => setTimeout(() => attach(window.lookbackSelfCheck)), { once: true });
})();
