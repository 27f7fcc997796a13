import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {"vocab_size": 50, "d_model": 16, "eval_batches": 3, "batch_size": 2, "seq_len": 12}


class CausalBagLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.vocab_size = cfg["vocab_size"]
        self.embed = nn.Embedding(cfg["vocab_size"], cfg["d_model"])
        self.proj = nn.Linear(cfg["d_model"], cfg["d_model"])
        self.lm_head = nn.Linear(cfg["d_model"], cfg["vocab_size"])

    def forward(self, input_ids, labels=None):
        x = self.embed(input_ids)
        steps = torch.arange(1, input_ids.size(1) + 1, device=x.device).view(1, -1, 1)
        hidden = torch.tanh(self.proj(x.cumsum(dim=1) / steps))
        logits = self.lm_head(hidden)
        loss = None
        if labels is not None:
            shift_logits = logits[:, :-1, :].reshape(-1, self.vocab_size)
            loss = F.cross_entropy(shift_logits, labels[:, 1:].reshape(-1))
        return logits, loss


def compute_losses(model, batches):
    losses = []
    with torch.no_grad():
        for input_ids in batches:
            _, loss = model(input_ids, labels=input_ids)
            losses.append(loss.item())
    return losses


def make_eval_batches(cfg):
    g = torch.Generator().manual_seed(1)
    shape = (cfg["batch_size"], cfg["seq_len"])
    return [torch.randint(0, cfg["vocab_size"], shape, generator=g) for _ in range(cfg["eval_batches"])]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = CausalBagLM(CONFIG)
    batches = make_eval_batches(CONFIG)
    losses = compute_losses(model, batches)
    for ids, loss in zip(batches, losses):
        logits, _ = model(ids)
        logp = logits.log_softmax(-1)
        nll = [-logp[b, t, ids[b, t + 1]].item() for b in range(ids.size(0)) for t in range(ids.size(1) - 1)]
        assert abs(loss - sum(nll) / len(nll)) < 1e-5
    print("ok")
