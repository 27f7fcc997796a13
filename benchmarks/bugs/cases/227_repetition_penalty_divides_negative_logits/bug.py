import torch
import torch.nn as nn


def repetition_penalty(logits, repetition_penalty, used_tokens):
    """Implement the repetition penalty of the CTRL paper (https://arxiv.org/pdf/1909.05858.pdf)."""
    if used_tokens is not None and repetition_penalty != 1.0:
        logits_update = torch.gather(logits, 1, used_tokens)
        logits = torch.scatter(logits, 1, used_tokens, logits_update / repetition_penalty)
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
    with torch.no_grad():
        logits = torch.tensor([[2.0, -1.0, -1.2, 0.5, -3.0]])
        used = torch.tensor([[1, 3]])
        penalized = repetition_penalty(logits, 2.0, used)
        print("logits:", logits.tolist()[0])
        print("after a penalty of 2.0 on tokens 1 and 3:", penalized.tolist()[0])
        print("greedy pick among unused token 2 and used token 1:",
              "token 1" if penalized[0, 1] > penalized[0, 2] else "token 2")
        out = sample_sequence(model, torch.tensor([[3, 5, 1]]), 8, {"repetition_penalty": 1.5})
        print("generated:", out.tolist()[0])
