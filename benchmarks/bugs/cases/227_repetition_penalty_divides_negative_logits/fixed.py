import torch
import torch.nn as nn


def repetition_penalty(logits, repetition_penalty, used_tokens):
    """Implement the repetition penalty of the CTRL paper (https://arxiv.org/pdf/1909.05858.pdf)."""
    if used_tokens is not None and repetition_penalty != 1.0:
        logits_update = torch.gather(logits, 1, used_tokens)
        # a penalty must lower the logit whatever its sign
        logits_update = torch.where(
            logits_update < 0, logits_update * repetition_penalty, logits_update / repetition_penalty
        )
        logits = torch.scatter(logits, 1, used_tokens, logits_update)
    return logits


class TinyDecoder(nn.Module):
    def __init__(self, vocab_size, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, vocab_size)

    def step(self, token, state):
        state = self.cell(self.embed(token), state)
        return self.out(state), state


def sample_sequence(model, context_tokens, tokens_to_generate, inference_params):
    tokens = context_tokens.clone()
    state = torch.zeros(tokens.size(0), model.cell.hidden_size)
    for t in range(tokens.size(1)):
        logits, state = model.step(tokens[:, t], state)
    for _ in range(tokens_to_generate):
        logits = repetition_penalty(logits, inference_params["repetition_penalty"], tokens)
        next_token = logits.argmax(dim=-1)
        tokens = torch.cat([tokens, next_token[:, None]], dim=1)
        logits, state = model.step(next_token, state)
    return tokens


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyDecoder(vocab_size=12, hidden=8)
    logits = torch.randn(3, 12) * 2
    used = torch.tensor([[1, 3, 3], [0, 11, 5], [7, 7, 7]])
    penalized = repetition_penalty(logits, 1.7, used)
    for b in range(3):
        seen = set(used[b].tolist())
        for v in range(12):
            x = logits[b, v].item()
            expected = (x * 1.7 if x < 0 else x / 1.7) if v in seen else x
            assert abs(penalized[b, v].item() - expected) < 1e-6
            assert penalized[b, v].item() <= x + 1e-7
    with torch.no_grad():
        out = sample_sequence(model, torch.tensor([[3, 5, 1]]), 8, {"repetition_penalty": 1.5})
    assert out.shape == (1, 11)
    print("ok")
