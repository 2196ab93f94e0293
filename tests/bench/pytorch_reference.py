#!/usr/bin/python3
"""The reference peer of `lookback bench`: the same GRU encoder-decoder in
PyTorch (Debian's python3-torch 1.13, CPU, one thread), trained the same way
(batch 64, teacher forcing, mean cross-entropy over the 10 output characters,
Adam with lr 1e-3 and eps 1e-7), timed in examples per second.

Not part of the test suite and not a dependency: tests/bench/run.sh runs it
beside the C++ benchmark so the ratios come from one session on one machine.
Like `lookback bench` it counts this process's CPU seconds (time.process_time),
not wall-clock time, because the machine is shared.

The model (core/models/model.h): input embedding [40, 32]; encoder nn.GRU(32, H);
decoder start state = each row's true last encoder state; output embedding
[13, 16]; decoder GRUCell(16 (+H), H); with attention, at every step the context
c_t = sum_j softmax_j(score(s_{t-1}, h_j)) h_j over the real (unpadded) source
positions, scorers dot / general / additive (v . tanh(W_e h_j + W_d s)); output
Linear(H, 13). The strings are the dataset's six formats (docs/dataset.md),
drawn here with Python's own RNG: the timing depends on their lengths, not on
which dates they are.

With --decoder transformer (or transformer-first) it is core/models/transformer.h's
one-layer Transformer built from nn.TransformerEncoderLayer /
nn.TransformerDecoderLayer (d_model = width, 4 heads, feed-forward 2 x width,
post-LN, ReLU, dropout 0): embeddings [40, D] and [13, D] scaled by sqrt(D)
plus sinusoidal positions, the source's key-padding mask, a causal mask on
the decoder, and cross-attention over every real encoder state (transformer)
or the first one only (transformer-first); output Linear(D, 13). It checks
that its parameter count is core's formula (87,949 at width 64).

usage: pytorch_reference.py [--decoder attention|plain|transformer|transformer-first]
                            [--scorer additive|dot|general] [--width 64] [--seconds 20] [--json]
"""
import argparse
import datetime
import json
import random
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
INPUT_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789 /,"   # ids 1..39, 0 = pad
OUTPUT_CHARS = "0123456789-"                               # ids 2..12, 0 = pad, 1 = start
T_OUT = 10


def ordinal(d):
    if 11 <= d % 100 <= 13:
        return f"{d}th"
    return f"{d}" + {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")


def format_date(date, fmt):
    d, m, y = date.day, date.month, date.year
    month, weekday = MONTHS[m - 1], WEEKDAYS[date.weekday()]
    return [f"{d}/{m}/{y}",
            f"{weekday} {d} {month} {y}",
            f"the {d} of {month}, {y}",
            f"{weekday[:3]}, {d} {month[:3]} {y}",
            f"{ordinal(d)} {month} {y}",
            f"{d:02d} {m:02d} {y}"][fmt]


def make_examples(n, seed):
    rng = random.Random(seed)
    first, days = datetime.date(1950, 1, 1), (datetime.date(2049, 12, 31) - datetime.date(1950, 1, 1)).days + 1
    examples = []
    for i in range(n):
        date = first + datetime.timedelta(days=rng.randrange(days))
        examples.append((format_date(date, i % 6), date.isoformat()))
    return examples


def make_batch(examples):
    S = max(len(src) for src, _ in examples)
    B = len(examples)
    src = torch.zeros(B, S, dtype=torch.long)
    lengths = torch.tensor([len(s) for s, _ in examples])
    dec_out = torch.zeros(B, T_OUT, dtype=torch.long)
    for b, (s, t) in enumerate(examples):
        src[b, :len(s)] = torch.tensor([INPUT_CHARS.index(c) + 1 for c in s])
        dec_out[b] = torch.tensor([OUTPUT_CHARS.index(c) + 2 for c in t])
    dec_in = torch.cat([torch.ones(B, 1, dtype=torch.long), dec_out[:, :-1]], dim=1)
    return src, lengths, dec_in, dec_out


class Seq2Seq(nn.Module):
    def __init__(self, H, decoder, scorer):
        super().__init__()
        self.attention, self.scorer = decoder == "attention", scorer
        self.enc_embedding = nn.Embedding(40, 32)
        self.encoder = nn.GRU(32, H, batch_first=True)
        self.dec_embedding = nn.Embedding(13, 16)
        self.decoder = nn.GRUCell(16 + (H if self.attention else 0), H)
        self.out = nn.Linear(H, 13)
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
        for t in range(T_OUT):
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
        return torch.stack(logits, dim=1)                                # [B, T, 13]


def sinusoids(length, D):
    """PE(pos, 2i) = sin(pos / 10000^(2i/D)), PE(pos, 2i+1) = cos(...) (Vaswani 2017 §3.5)."""
    position = torch.arange(length, dtype=torch.float32)[:, None]
    rate = torch.exp(torch.arange(0, D, 2, dtype=torch.float32) * (-torch.log(torch.tensor(10000.0)) / D))
    pe = torch.zeros(length, D)
    pe[:, 0::2] = torch.sin(position * rate)
    pe[:, 1::2] = torch.cos(position * rate)
    return pe


class Transformer(nn.Module):
    def __init__(self, D, memory):
        super().__init__()
        self.D, self.first_only = D, memory == "first"
        self.enc_embedding = nn.Embedding(40, D)
        self.dec_embedding = nn.Embedding(13, D)
        self.encoder = nn.TransformerEncoderLayer(D, 4, 2 * D, dropout=0.0, batch_first=True)
        self.decoder = nn.TransformerDecoderLayer(D, 4, 2 * D, dropout=0.0, batch_first=True)
        self.out = nn.Linear(D, 13)
        self.register_buffer("pe", sinusoids(64, D), persistent=False)
        self.register_buffer("causal", torch.triu(torch.full((T_OUT, T_OUT), float("-inf")), 1),
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
        y = self.dec_embedding(dec_in) * scale + self.pe[:T_OUT]
        z = self.decoder(y, memory, tgt_mask=self.causal, memory_key_padding_mask=memory_padding)
        return self.out(z)                                               # [B, T, 13]


def transformer_parameters(D, F=None):
    """core/models/transformer.h's formula."""
    F = F or 2 * D
    attention = 4 * D * D + 4 * D
    ffn = 2 * D * F + F + D
    return 40 * D + 13 * D + (attention + ffn + 2 * 2 * D) + (2 * attention + ffn + 3 * 2 * D) + 13 * D + 13


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decoder", choices=["attention", "plain", "transformer", "transformer-first"],
                        default="attention")
    parser.add_argument("--scorer", choices=["additive", "dot", "general"], default="additive")
    parser.add_argument("--width", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=20.0, help="training time to measure")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    torch.manual_seed(1)
    examples = make_examples(6000, seed=1)
    transformer = args.decoder.startswith("transformer")
    if transformer:
        model = Transformer(args.width, "first" if args.decoder == "transformer-first" else "all")
        count = sum(p.numel() for p in model.parameters())
        if count != transformer_parameters(args.width):
            sys.exit(f"pytorch_reference.py: {count} parameters, core's formula says "
                     f"{transformer_parameters(args.width)}")
    else:
        model = Seq2Seq(args.width, args.decoder, args.scorer)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-7)
    batches = [make_batch(examples[i:i + 64]) for i in range(0, len(examples), 64)]

    def train_step(batch):
        src, lengths, dec_in, dec_out = batch
        optimizer.zero_grad()
        logits = model(src, lengths, dec_in)
        loss = F.cross_entropy(logits.reshape(-1, 13), dec_out.reshape(-1))
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
        start, n = time.process_time(), 0
        while time.process_time() - start < args.seconds / 4:
            src, lengths, dec_in, _ = batches[n % len(batches)]
            model(src, lengths, dec_in)
            n += 1
        infer_rate = n * 64 / (time.process_time() - start)

    result = {"model": "transformer" if transformer else args.decoder,
              "scorer": args.scorer if args.decoder == "attention" else "none",
              "width": args.width, "target": "pytorch-1.13-cpu-1-thread",
              "train_examples_per_second": train_rate, "infer_strings_per_second": infer_rate,
              "torch_version": torch.__version__, "last_loss": loss,
              "parameters": sum(p.numel() for p in model.parameters())}
    if transformer:
        result["memory"] = "first" if args.decoder == "transformer-first" else "all"
    if args.json:
        print(json.dumps(result))
    else:
        print(f"PyTorch {torch.__version__}, 1 thread, {args.decoder} ({result['scorer']}), width {args.width}, "
              f"{result['parameters']} parameters, "
              f"batch 64: {train_rate:.0f} training examples/s, {infer_rate:.0f} strings/s forward (loss {loss:.3f})")


if __name__ == "__main__":
    sys.exit(main())
