import torch
import torch.nn as nn
import torch.nn.functional as F


class Dictionary:
    def __init__(self, corpus):
        self.idx2word = sorted(set(corpus.split())) + ["<eos>", "<unk>"]
        self.word2idx = {w: i for i, w in enumerate(self.idx2word)}

    def encode(self, text):
        return torch.tensor([self.word2idx[w] for w in text.split()])


class SplitCrossEntropy(nn.Module):
    def __init__(self, hidden, ntokens, split):
        super().__init__()
        self.split = split
        self.head = nn.Linear(hidden, split + 1)        # [H] -> [split head words + 1 tail cluster]
        self.tail = nn.Linear(hidden, ntokens - split)  # [H] -> [ntokens - split]

    def forward(self, h, targets):
        # h: [N, H], targets: [N] word ids in [0, ntokens)
        head_logp = F.log_softmax(self.head(h), dim=-1)   # [N, split + 1]
        in_tail = targets >= self.split                    # [N]
        head_idx = torch.where(in_tail, torch.full_like(targets, self.split), targets)
        logp = head_logp.gather(1, head_idx.unsqueeze(1)).squeeze(1)  # [N]
        tail_h, tail_t = h[in_tail], targets[in_tail] - self.split     # [M, H], [M]
        tail_logp = F.log_softmax(self.tail(tail_h), dim=-1)           # [M, ntokens - split]
        logp[in_tail] = logp[in_tail] + tail_logp.gather(1, tail_t.unsqueeze(1)).squeeze(1)
        return -logp.mean()


CONFIG = {"hidden": 12, "ntokens": 10, "split": 4}

if __name__ == "__main__":
    torch.manual_seed(0)
    corpus = "the cat sat on the mat and the dog ate a bone near the mat"
    vocab = Dictionary(corpus)
    ids = vocab.encode(corpus)
    CONFIG["ntokens"] = len(vocab.idx2word)
    crit = SplitCrossEntropy(CONFIG["hidden"], CONFIG["ntokens"], CONFIG["split"])
    h = torch.randn(ids.numel(), CONFIG["hidden"])
    loss = crit(h, ids)
    head = F.log_softmax(crit.head(h), dim=-1)
    tail = F.log_softmax(crit.tail(h), dim=-1)
    total = 0.0
    for i, t in enumerate(ids.tolist()):
        if t < CONFIG["split"]:
            total += head[i, t].item()
        else:
            total += head[i, CONFIG["split"]].item() + tail[i, t - CONFIG["split"]].item()
    assert abs(loss.item() + total / ids.numel()) < 1e-5
    print("ok")
