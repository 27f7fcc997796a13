import torch
import torch.nn as nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok = nn.Embedding(cfg["vocab"], cfg["dim"])
        self.body = nn.GRU(cfg["dim"], cfg["dim"], num_layers=cfg["layers"], batch_first=True)
        self.head = nn.Linear(cfg["dim"], cfg["vocab"], bias=False)

    def forward(self, tokens):
        h, _ = self.body(self.tok(tokens))
        return self.head(h)


def pad_batch(prompts, pad_id):
    width = max(len(p) for p in prompts)
    tokens = torch.full((len(prompts), width), pad_id)
    for i, p in enumerate(prompts):
        tokens[i, : len(p)] = torch.tensor(p)
    return tokens


def echo_logprobs(model, prompts, pad_id):
    tokens = pad_batch(prompts, pad_id)
    logits = model(tokens)
    logprobs = torch.log_softmax(logits, dim=-1)
    token_logprobs = logprobs.gather(2, tokens.unsqueeze(2)).squeeze(2)
    token_logprobs = token_logprobs.masked_fill(tokens == pad_id, 0.0)
    return [token_logprobs[i, 1 : len(p)].tolist() for i, p in enumerate(prompts)]


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"vocab": 50, "dim": 24, "layers": 1, "pad_id": 0}
    model = Decoder(cfg)
    prompts = [[1, 17, 33, 8, 41, 12], [1, 5, 9, 44]]
    with torch.no_grad():
        scores = echo_logprobs(model, prompts, cfg["pad_id"])
        ref = []
        for p in prompts:
            lp = torch.log_softmax(model(torch.tensor([p])), -1)[0]
            ref.append([float(lp[t - 1, p[t]]) for t in range(1, len(p))])
    diff = max(abs(a - b) for s, r in zip(scores, ref) for a, b in zip(s, r))
    print("max |diff| vs next-token scoring:", diff)
