import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


def build_label_store(num_images, seq_per_img, max_len, vocab_size, seed=0):
    # same layout as the label matrix written by the preprocessing script
    rng = np.random.default_rng(seed)
    labels = np.zeros((num_images * seq_per_img, max_len + 2), dtype="uint32")
    labels[:, 1:-1] = rng.integers(1, vocab_size, size=(num_images * seq_per_img, max_len))
    return labels


class CaptionDataset(Dataset):
    def __init__(self, opt):
        self.opt = opt
        self.labels = build_label_store(opt["num_images"], opt["seq_per_img"], opt["max_len"], opt["vocab_size"])
        self.fc_feats = np.random.default_rng(1).standard_normal((opt["num_images"], opt["fc_dim"])).astype("float32")

    def __len__(self):
        return self.opt["num_images"]

    def __getitem__(self, i):
        n = self.opt["seq_per_img"]
        seqs = self.labels[i * n:(i + 1) * n]
        mask = (seqs > 0).astype("float32")
        mask[:, :2] = 1
        return torch.from_numpy(self.fc_feats[i]), torch.from_numpy(seqs), torch.from_numpy(mask)


def collate(batch):
    feats = torch.stack([b[0] for b in batch])
    labels = torch.cat([b[1] for b in batch])
    masks = torch.cat([b[2] for b in batch])
    return feats, labels, masks


class LanguageModelCriterion(nn.Module):
    def forward(self, logprobs, target, mask):
        target = target[:, :logprobs.size(1)]
        mask = mask[:, :logprobs.size(1)]
        picked = logprobs.gather(2, target.unsqueeze(2)).squeeze(2)
        return -(picked * mask).sum() / mask.sum()


class FCCaptioner(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.seq_per_img = opt["seq_per_img"]
        self.steps = opt["max_len"] + 1
        self.proj = nn.Linear(opt["fc_dim"], opt["vocab_size"] + 1)
        self.time = nn.Parameter(torch.randn(self.steps, opt["vocab_size"] + 1) * 0.1)

    def forward(self, fc_feats):
        base = self.proj(fc_feats).repeat_interleave(self.seq_per_img, 0)
        return F.log_softmax(base.unsqueeze(1) + self.time, dim=-1)


if __name__ == "__main__":
    opt = {"num_images": 6, "seq_per_img": 5, "max_len": 16, "vocab_size": 9487, "fc_dim": 32}
    loader = DataLoader(CaptionDataset(opt), batch_size=2, collate_fn=collate)
    model, crit = FCCaptioner(opt), LanguageModelCriterion()
    for fc_feats, labels, masks in loader:
        loss = crit(model(fc_feats), labels[:, 1:], masks[:, 1:])
        print("loss:", loss.item())
        break
