import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.Embedding(cfg["vocab"], cfg["dim"])
        self.rnn = nn.GRU(cfg["dim"], cfg["dim"], batch_first=True)
        self.head = nn.Linear(cfg["dim"], cfg["vocab"])

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.head(h)


def sequence_logprobs(model, tokens, loss_mask):
    logits = model(tokens[:, :-1])
    log_probs = torch.log_softmax(logits.float(), dim=-1)
    token_logprobs = torch.gather(log_probs, 2, tokens[:, 1:].unsqueeze(-1)).squeeze(-1)
    mask = loss_mask[:, 1:].to(token_logprobs.dtype)
    total = (token_logprobs * mask).sum(dim=1)
    return total, mask.sum(dim=1)


def score_batch(model, batch):
    total, count = sequence_logprobs(model, batch["tokens"], batch["loss_mask"])
    return total / count


def build_batch(cfg, seed):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, cfg["vocab"], (cfg["batch"], cfg["length"]), generator=g)
    lengths = torch.tensor(cfg["lengths"])
    loss_mask = (torch.arange(cfg["length"])[None, :] < lengths[:, None]).long()
    return {"tokens": tokens, "loss_mask": loss_mask}


if __name__ == "__main__":
    cfg = {"vocab": 30, "dim": 16, "batch": 3, "length": 7, "lengths": [7, 4, 5]}
    torch.manual_seed(0)
    model = TinyLM(cfg)
    batch = build_batch(cfg, seed=1)
    with torch.no_grad():
        scores = score_batch(model, batch)
        lp = torch.log_softmax(model(batch["tokens"][:, :-1]), -1)
        ref = []
        for b in range(cfg["batch"]):
            vals = [lp[b, t, batch["tokens"][b, t + 1]].item() for t in range(cfg["length"] - 1)
                    if batch["loss_mask"][b, t + 1]]
            ref.append(sum(vals) / len(vals))
    assert scores.shape == (cfg["batch"],)
    assert torch.allclose(scores, torch.tensor(ref), atol=1e-5)
    print("ok")
