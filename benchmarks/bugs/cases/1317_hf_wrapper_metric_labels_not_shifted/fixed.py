import torch
import torch.nn as nn


class LanguagePerplexity:
    def __init__(self, ignore_index=-100):
        self.ignore_index = ignore_index
        self.sum_loss, self.total = 0.0, 0

    def update(self, logits, target):
        logits = logits.reshape(-1, logits.size(-1))
        target = target.reshape(-1)
        keep = target != self.ignore_index
        logp = logits[keep].log_softmax(-1)
        token_logp = logp.gather(1, target[keep].unsqueeze(1)).squeeze(1)
        self.sum_loss += -token_logp.sum().item()
        self.total += int(keep.sum())

    def compute(self):
        return float(torch.exp(torch.tensor(self.sum_loss / self.total)))


class HuggingFaceModel:
    def __init__(self, model, metrics, shift_labels=True):
        self.model, self.metrics, self.shift_labels = model, metrics, shift_labels

    def eval_forward(self, batch):
        self.labels = batch.pop("labels")
        if self.shift_labels:
            # HF CausalLM models shift labels internally before the loss, so do the same here
            self.labels[:, :-1] = self.labels[:, 1:].clone()
            self.labels[:, -1] = -100
        return self.model(batch["input_ids"])

    def update_metric(self, batch, outputs):
        for metric in self.metrics.values():
            metric.update(outputs, self.labels)


def build(cfg):
    torch.manual_seed(cfg["seed"])
    lm = nn.Sequential(nn.Embedding(cfg["vocab"], cfg["d"]), nn.Tanh(), nn.Linear(cfg["d"], cfg["vocab"]))
    return HuggingFaceModel(lm, {"ppl": LanguagePerplexity()}, shift_labels=True)


if __name__ == "__main__":
    cfg = {"seed": 0, "vocab": 30, "d": 12, "batch": 3, "seq": 10}
    wrapper = build(cfg)
    ids = torch.randint(0, cfg["vocab"], (cfg["batch"], cfg["seq"]))
    with torch.no_grad():
        out = wrapper.eval_forward({"input_ids": ids, "labels": ids.clone()})
        wrapper.update_metric(None, out)
        lp = wrapper.model(ids).log_softmax(-1)
    nll = [-lp[b, t, ids[b, t + 1]].item() for b in range(cfg["batch"]) for t in range(cfg["seq"] - 1)]
    ref = float(torch.tensor(sum(nll) / len(nll)).exp())
    assert abs(wrapper.metrics["ppl"].compute() - ref) < 1e-3 * ref
    print("ok")
