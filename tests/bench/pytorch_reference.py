#!/usr/bin/python3
"""The reference peer of `lookback bench`: the same models in PyTorch (Debian's
python3-torch 1.13, CPU, one thread), trained the same way (batch 64, teacher
forcing, Adam with lr 1e-3 and eps 1e-7, mean cross-entropy over the scored
target steps), timed in examples per second, on one task's training split.

Not part of the test suite and not a dependency: tests/bench/run.mjs runs it
beside the C++ benchmark so the ratios come from one session on one machine.
Like `lookback bench` it counts this process's CPU seconds (time.process_time),
not wall-clock time, because the machine is shared.

The data come from the core, not from a second generator here: the script runs
`lookback bench --task T --write-split -`, which prints the task's training
split (data seed 1, the one `lookback bench --task T` trains on) as token ids,
with the task's vocabulary sizes, output steps T and end token. Throughput
depends on shapes, not on which strings they are, and this way the lengths,
vocabularies and end tokens are exactly the core's for every task (dates:
characters, T = 10, no end token; reversal: letters, inputs of 8-27, T = 28;
translation: words, vocabularies of 45 and 60, T = 15). The batches are the
split's consecutive runs of 64 (a task's groups alternate example by example,
so a run mixes them as the core's shuffled batches do), built once before
timing. As in core/data/task.h's make_batch, a batch's sources are padded to
its longest, its targets (with their end token) to T steps with 0, the
decoder's input is the start token then the target; the decoder runs all T
steps, and the loss is the mean over the steps whose target is not padding
(core/layers/layers.h's unscored_target; every step of a date is scored).

The GRU models (core/models/model.h): input embedding [V_in, 32]; encoder
nn.GRU(32, H); decoder start state = each row's true last encoder state; output
embedding [V_out, 16]; decoder GRUCell(16 (+H), H); with attention, at every
step the context c_t = sum_j softmax_j(score(s_{t-1}, h_j)) h_j over the real
(unpadded) source positions, scorers dot / general / additive
(v . tanh(W_e h_j + W_d s)); output Linear(H, V_out).

With --decoder transformer (or transformer-first) it is core/models/transformer.h's
one-layer Transformer built from nn.TransformerEncoderLayer /
nn.TransformerDecoderLayer (d_model = width, 4 heads, feed-forward 2 x width,
post-LN, ReLU, dropout 0): embeddings [V_in, D] and [V_out, D] scaled by sqrt(D)
plus sinusoidal positions, the source's key-padding mask, a causal mask on
the decoder, and cross-attention over every real encoder state (transformer)
or the first one only (transformer-first); output Linear(D, V_out).

Before timing, the script checks that its parameter count equals the core's
for the same model, task and width, as `lookback train --task T ... --epochs 1
--json -` prints it ("parameters"; 57,437 for additive attention at width 64
on the date task, 87,949 for the Transformer), and stops if they differ.

usage: pytorch_reference.py [--task dates|reversal|translation]
                            [--decoder attention|plain|transformer|transformer-first]
                            [--scorer additive|dot|general] [--width 64] [--seconds 20] [--json]
                            [--lookback build/native/lookback]
"""
import argparse
import json
import os
import subprocess
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
START = 1                                                   # core/data/task.h: 0 pad, 1 start


def read_split(lookback, task):
    """The task's training split from the core: sizes and token ids (cli/cmd_bench.cpp)."""
    out = subprocess.run([lookback, "bench", "--task", task, "--write-split", "-"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def core_parameters(lookback, task, decoder, scorer, width):
    """The core's parameter count for the same model: one epoch of `lookback train`."""
    model = ["--model", "transformer"] if decoder.startswith("transformer") else ["--model", decoder]
    if decoder == "transformer-first":
        model += ["--memory", "first"]
    if decoder == "attention":
        model += ["--scorer", scorer]
    out = subprocess.run([lookback, "train", "--task", task, *model, "--width", str(width),
                          "--epochs", "1", "--json", "-"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)["parameters"]


def make_batch(inputs, targets, T):
    """core/data/task.h's make_batch: sources padded to the longest, targets to T steps."""
    B, S = len(inputs), max(len(s) for s in inputs)
    src = torch.zeros(B, S, dtype=torch.long)
    lengths = torch.tensor([len(s) for s in inputs])
    dec_out = torch.zeros(B, T, dtype=torch.long)
    for b, (s, t) in enumerate(zip(inputs, targets)):
        src[b, :len(s)] = torch.tensor(s)
        dec_out[b, :len(t)] = torch.tensor(t)
    dec_in = torch.cat([torch.full((B, 1), START, dtype=torch.long), dec_out[:, :-1]], dim=1)
    return src, lengths, dec_in, dec_out


class Seq2Seq(nn.Module):
    def __init__(self, H, decoder, scorer, V_in, V_out, T):
        super().__init__()
        self.attention, self.scorer, self.T = decoder == "attention", scorer, T
        self.enc_embedding = nn.Embedding(V_in, 32)
        self.encoder = nn.GRU(32, H, batch_first=True)
        self.dec_embedding = nn.Embedding(V_out, 16)
        self.decoder = nn.GRUCell(16 + (H if self.attention else 0), H)
        self.out = nn.Linear(H, V_out)
        if self.attention and scorer == "additive":
            self.W_e = nn.Linear(H, H, bias=False)
            self.W_d = nn.Linear(H, H, bias=False)
            self.v = nn.Linear(H, 1, bias=False)
        if self.attention and scorer == "general":
            self.W = nn.Linear(H, H, bias=False)

    def forward(self, src, lengths, dec_in):
        B, S = src.shape
        enc, _ = self.encoder(self.enc_embedding(src))                  # [B, S, H]
        s = enc[torch.arange(B), lengths - 1]                           # true last states
        padding = torch.arange(S)[None, :] >= lengths[:, None]          # [B, S]
        if self.attention:                                               # keys once per batch
            keys = self.W_e(enc) if self.scorer == "additive" else self.W(enc) if self.scorer == "general" else enc
        y = self.dec_embedding(dec_in)                                   # [B, T, 16]
        logits = []
        for t in range(self.T):
            x = y[:, t]
            if self.attention:
                if self.scorer == "additive":
                    scores = self.v(torch.tanh(keys + self.W_d(s)[:, None, :])).squeeze(-1)
                else:
                    scores = torch.bmm(keys, s[:, :, None]).squeeze(-1)
                alpha = torch.softmax(scores.masked_fill(padding, float("-inf")), dim=1)
                context = torch.bmm(alpha[:, None, :], enc).squeeze(1)
                x = torch.cat([x, context], dim=1)
            s = self.decoder(x, s)
            logits.append(self.out(s))
        return torch.stack(logits, dim=1)                                # [B, T, V_out]


def sinusoids(length, D):
    """PE(pos, 2i) = sin(pos / 10000^(2i/D)), PE(pos, 2i+1) = cos(...) (Vaswani 2017 §3.5)."""
    position = torch.arange(length, dtype=torch.float32)[:, None]
    rate = torch.exp(torch.arange(0, D, 2, dtype=torch.float32) * (-torch.log(torch.tensor(10000.0)) / D))
    pe = torch.zeros(length, D)
    pe[:, 0::2] = torch.sin(position * rate)
    pe[:, 1::2] = torch.cos(position * rate)
    return pe


class Transformer(nn.Module):
    def __init__(self, D, memory, V_in, V_out, T):
        super().__init__()
        self.D, self.first_only, self.T = D, memory == "first", T
        self.enc_embedding = nn.Embedding(V_in, D)
        self.dec_embedding = nn.Embedding(V_out, D)
        self.encoder = nn.TransformerEncoderLayer(D, 4, 2 * D, dropout=0.0, batch_first=True)
        self.decoder = nn.TransformerDecoderLayer(D, 4, 2 * D, dropout=0.0, batch_first=True)
        self.out = nn.Linear(D, V_out)
        self.register_buffer("pe", sinusoids(64, D), persistent=False)
        self.register_buffer("causal", torch.triu(torch.full((T, T), float("-inf")), 1),
                             persistent=False)

    def forward(self, src, lengths, dec_in):
        B, S = src.shape
        scale = self.D ** 0.5
        padding = torch.arange(S)[None, :] >= lengths[:, None]          # [B, S]
        x = self.enc_embedding(src) * scale + self.pe[:S]
        memory = self.encoder(x, src_key_padding_mask=padding)          # [B, S, D]
        memory_padding = padding
        if self.first_only:                                              # the bottleneck
            memory, memory_padding = memory[:, :1], padding[:, :1]
        y = self.dec_embedding(dec_in) * scale + self.pe[:self.T]
        z = self.decoder(y, memory, tgt_mask=self.causal, memory_key_padding_mask=memory_padding)
        return self.out(z)                                               # [B, T, V_out]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", choices=["dates", "reversal", "translation"], default="dates")
    parser.add_argument("--decoder", choices=["attention", "plain", "transformer", "transformer-first"],
                        default="attention")
    parser.add_argument("--scorer", choices=["additive", "dot", "general"], default="additive")
    parser.add_argument("--width", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=20.0, help="training time to measure")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--lookback", default=os.path.join(ROOT, "build", "native", "lookback"),
                        help="the native lookback that writes the task's split and counts parameters")
    args = parser.parse_args()
    if not os.path.exists(args.lookback):
        sys.exit(f"pytorch_reference.py: {args.lookback} is missing: build it first, or give --lookback")

    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    torch.manual_seed(1)
    split = read_split(args.lookback, args.task)
    V_in, V_out, T = split["input_vocabulary"], split["output_vocabulary"], split["output_steps"]
    transformer = args.decoder.startswith("transformer")
    if transformer:
        model = Transformer(args.width, "first" if args.decoder == "transformer-first" else "all", V_in, V_out, T)
    else:
        model = Seq2Seq(args.width, args.decoder, args.scorer, V_in, V_out, T)
    count, core_count = (sum(p.numel() for p in model.parameters()),
                         core_parameters(args.lookback, args.task, args.decoder, args.scorer, args.width))
    if count != core_count:
        sys.exit(f"pytorch_reference.py: {count} parameters, the core's {args.decoder} model on "
                 f"{args.task} at width {args.width} has {core_count}")
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-7)
    inputs, targets = split["inputs"], split["targets"]
    batches = [make_batch(inputs[i:i + 64], targets[i:i + 64], T) for i in range(0, len(inputs), 64)]

    def train_step(batch):
        src, lengths, dec_in, dec_out = batch
        optimizer.zero_grad()
        logits = model(src, lengths, dec_in)
        # the mean over the scored steps: padding after a target's end (0) is not scored
        loss = F.cross_entropy(logits.reshape(-1, V_out), dec_out.reshape(-1), ignore_index=0)
        loss.backward()
        optimizer.step()
        return loss.item()

    for batch in batches[:3]:                      # warm-up
        train_step(batch)
    seen, start, i = 0, time.process_time(), 0
    while time.process_time() - start < args.seconds:
        batch = batches[i % len(batches)]
        loss = train_step(batch)
        seen += batch[0].shape[0]
        i += 1
    train_rate = seen / (time.process_time() - start)

    # Inference: teacher-forced forward of a batch of 64 without gradients (an
    # upper bound on greedy decoding, which runs the same steps one at a time).
    with torch.no_grad():
        start, n, i = time.process_time(), 0, 0
        while time.process_time() - start < args.seconds / 4:
            src, lengths, dec_in, _ = batches[i % len(batches)]
            model(src, lengths, dec_in)
            n += src.shape[0]
            i += 1
        infer_rate = n / (time.process_time() - start)

    result = {"model": "transformer" if transformer else args.decoder,
              "scorer": args.scorer if args.decoder == "attention" else "none",
              "width": args.width, "target": "pytorch-1.13-cpu-1-thread", "task": args.task,
              "train_examples_per_second": train_rate, "infer_strings_per_second": infer_rate,
              "torch_version": torch.__version__, "last_loss": loss,
              "parameters": sum(p.numel() for p in model.parameters())}
    if transformer:
        result["memory"] = "first" if args.decoder == "transformer-first" else "all"
    if args.json:
        print(json.dumps(result))
    else:
        print(f"PyTorch {torch.__version__}, 1 thread, {args.task}, {args.decoder} ({result['scorer']}), width {args.width}, "
              f"{result['parameters']} parameters, "
              f"batch 64: {train_rate:.0f} training examples/s, {infer_rate:.0f} strings/s forward (loss {loss:.3f})")


if __name__ == "__main__":
    sys.exit(main())
