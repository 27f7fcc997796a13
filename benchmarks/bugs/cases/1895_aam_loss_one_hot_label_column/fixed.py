import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class SpeakerUtterances(torch.utils.data.Dataset):
    def __init__(self, feats: Float[Tensor, "n t m"], speaker_ids: list):
        self.feats = feats
        self.speaker_ids = speaker_ids

    def __len__(self):
        return len(self.speaker_ids)

    def __getitem__(self, i):
        return self.feats[i], torch.tensor([self.speaker_ids[i]], dtype=torch.long)


def collate_fn(batch) -> tuple[Float[Tensor, "b t m"], Int[Tensor, "b"]]:
    feats = torch.stack([f for f, _ in batch])
    labels = torch.cat([l for _, l in batch])
    return feats, labels


class SpeakerEncoder(nn.Module):
    def __init__(self, n_mels: int, embd_dim: int, num_speakers: int):
        super().__init__()
        self.frame = nn.Sequential(nn.Linear(n_mels, 64), nn.ReLU(), nn.Linear(64, embd_dim))
        self.weight = nn.Parameter(torch.randn(num_speakers, embd_dim) * 0.1)

    def forward(self, feats: Float[Tensor, "b t m"]) -> dict:
        features: Float[Tensor, "b d"] = self.frame(feats).mean(dim=1)
        logits: Float[Tensor, "b c"] = F.linear(F.normalize(features), F.normalize(self.weight))
        return {"features": features, "logits": logits}


class AAMLoss(nn.Module):
    def __init__(self, margin=0.2, scale=32, easy_margin=False):
        super().__init__()
        self.scale = scale
        self.easy_margin = easy_margin
        self.cos_m = math.cos(margin)
        self.sin_m = math.sin(margin)
        self.th = math.cos(math.pi - margin)
        self.mmm = 1.0 + math.cos(math.pi - margin)
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, inputs: dict, labels: Int[Tensor, "b"]) -> Float[Tensor, ""]:
        logits: Float[Tensor, "b c"] = inputs["logits"]
        sine = torch.sqrt((1.0 - logits.pow(2)).clamp(min=0))
        phi = logits * self.cos_m - sine * self.sin_m
        if self.easy_margin:
            phi = torch.where(logits > 0, phi, logits)
        else:
            phi = torch.where(logits > self.th, phi, logits - self.mmm)
        one_hot = F.one_hot(labels, logits.shape[1])
        output = (one_hot * phi) + ((1.0 - one_hot) * logits)
        output = output * self.scale
        return self.criterion(output, labels)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_speakers = 10
    data = SpeakerUtterances(torch.randn(32, 50, 40), [i % num_speakers for i in range(32)])
    loader = torch.utils.data.DataLoader(data, batch_size=8, collate_fn=collate_fn)
    model = SpeakerEncoder(n_mels=40, embd_dim=16, num_speakers=num_speakers)
    loss_fn = AAMLoss()
    with torch.no_grad():
        for feats, labels in loader:
            outputs = model(feats)
            loss = loss_fn(outputs, labels)
            cos = outputs["logits"]
            total = 0.0
            for i in range(feats.shape[0]):
                y = int(labels[i])
                row = []
                for j in range(num_speakers):
                    c = float(cos[i, j])
                    if j == y:
                        s = math.sqrt(max(1.0 - c * c, 0.0))
                        p = c * loss_fn.cos_m - s * loss_fn.sin_m
                        c = p if c > loss_fn.th else c - loss_fn.mmm
                    row.append(c * loss_fn.scale)
                m = max(row)
                total += m + math.log(sum(math.exp(r - m) for r in row)) - row[y]
            assert abs(loss.item() - total / feats.shape[0]) < 1e-4
    print("ok")
