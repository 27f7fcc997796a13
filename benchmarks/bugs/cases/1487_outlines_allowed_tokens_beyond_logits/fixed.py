import math

import torch
import torch.nn as nn


CONFIG = {
    "base_vocab": ["<pad>", "<s>", "</s>"] + [str(d) for d in range(10)] + list("abcdefghijklmnopqrstuvwxyz ,.-"),
    "added_tokens": ["<|tool|>", "<|end|>"],
    "hidden_size": 24,
}


class ToyTokenizer:
    def __init__(self, base_vocab, added_tokens):
        self.vocab = list(base_vocab) + list(added_tokens)
        self.token_to_id = {t: i for i, t in enumerate(self.vocab)}

    def __len__(self):
        return len(self.vocab)


class RegexLikeFSM:
    """Accepts an integer followed by the end token: states 0 (start) and 1 (inside number)."""

    def __init__(self, tokenizer):
        self.digit_ids = [tokenizer.token_to_id[str(d)] for d in range(10)]
        self.end_id = tokenizer.token_to_id["<|end|>"]

    def allowed_token_ids(self, state):
        return self.digit_ids if state == 0 else self.digit_ids + [self.end_id]

    def next_state(self, state, token_id):
        return 1


class OutlinesLogitsProcessor:
    def __init__(self, tokenizer):
        self.fsm = RegexLikeFSM(tokenizer)
        self.fsm_state = 0

    def __call__(self, scores):
        allowed_tokens = self.fsm.allowed_token_ids(self.fsm_state)
        # the tokenizer can be larger than the lm head: drop ids the model cannot score
        allowed_tokens = [t for t in allowed_tokens if t < scores.shape[-1]]
        mask = torch.full_like(scores, -math.inf)
        mask[:, allowed_tokens] = 0
        return scores + mask

    def next_state(self, token_id):
        self.fsm_state = self.fsm.next_state(self.fsm_state, token_id)


class ToyLM(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size)

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.embed(input_ids)))


def build(config):
    tokenizer = ToyTokenizer(config["base_vocab"], config["added_tokens"])
    # the checkpoint's head only covers the base vocabulary; the added tokens were never trained
    model = ToyLM(len(config["base_vocab"]), config["hidden_size"]).eval()
    return tokenizer, model


def constrained_greedy(model, processor, prompt_ids, steps):
    ids = list(prompt_ids)
    for _ in range(steps):
        with torch.no_grad():
            scores = model(torch.tensor([ids]))[:, -1]
        scores = processor(scores)
        next_id = int(scores.argmax(-1))
        processor.next_state(next_id)
        ids.append(next_id)
    return ids[len(prompt_ids):]


if __name__ == "__main__":
    torch.manual_seed(0)
    tokenizer, model = build(CONFIG)
    processor = OutlinesLogitsProcessor(tokenizer)
    out = constrained_greedy(model, processor, [1, 20, 21, 22], steps=4)
    # loop reference: greedy over the allowed ids that exist in the head
    ids, ref, state = [1, 20, 21, 22], [], 0
    fsm = RegexLikeFSM(tokenizer)
    for _ in range(4):
        with torch.no_grad():
            row = model(torch.tensor([ids]))[0, -1].tolist()
        best = None
        for t in fsm.allowed_token_ids(state):
            if t < len(row) and (best is None or row[t] > row[best]):
                best = t
        ref.append(best)
        ids.append(best)
        state = fsm.next_state(state, best)
    assert out == ref, (out, ref)
    print("ok", [tokenizer.vocab[i] for i in out])
