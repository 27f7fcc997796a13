import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class PairDataset(Dataset):
    def __init__(self, src, tgt):
        self.src, self.tgt = src, tgt

    def __len__(self):
        return len(self.src)

    def __getitem__(self, i):
        return self.src[i], self.tgt[i]


def collate(batch):
    src = torch.stack([torch.as_tensor(s) for s, _ in batch])
    tgt = torch.tensor([t for _, t in batch], dtype=torch.long)
    return src, tgt


class LabelSmoothing(nn.Module):
    def __init__(self, size, padding_idx, smoothing=0.1):
        super().__init__()
        self.criterion = nn.KLDivLoss(reduction="sum")
        self.size, self.padding_idx = size, padding_idx
        self.confidence, self.smoothing = 1.0 - smoothing, smoothing

    def forward(self, x, target):
        true_dist = torch.full_like(x, self.smoothing / (self.size - 2))
        true_dist.scatter_(1, target.unsqueeze(1), self.confidence)
        true_dist[:, self.padding_idx] = 0
        true_dist[target == self.padding_idx] = 0
        return self.criterion(x, true_dist)


def train_step(model, crit, src, tgt):
    log_probs = model(src).log_softmax(dim=-1)
    return crit(log_probs, tgt)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"vocab": 11, "dim": 6, "pad": 0}
    model = nn.Linear(cfg["dim"], cfg["vocab"])
    crit = LabelSmoothing(cfg["vocab"], cfg["pad"], smoothing=0.1)
    data = PairDataset([torch.randn(cfg["dim"]) for _ in range(8)], [3, 7, 0, 1, 10, 4, 4, 2])
    for src, tgt in DataLoader(data, batch_size=4, collate_fn=collate):
        loss = train_step(model, crit, src, tgt)
        log_probs = model(src).log_softmax(dim=-1)
        ref = 0.0
        for b in range(src.shape[0]):
            t = int(tgt[b])
            if t == cfg["pad"]:
                continue
            for v in range(cfg["vocab"]):
                p = 0.0 if v == cfg["pad"] else (0.9 if v == t else 0.1 / (cfg["vocab"] - 2))
                if p > 0:
                    ref += p * (torch.log(torch.tensor(p)) - log_probs[b, v]).item()
        assert abs(loss.item() - ref) < 1e-4, (loss.item(), ref)
    print("ok")
