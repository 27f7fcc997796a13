import torch
import torch.nn as nn
from jaxtyping import Float, Int

LABELS = ["blank", "deer", "fox", "boar", "badger", "hare", "lynx"]


def resolve_targets(names: list[str]) -> Int[torch.Tensor, "batch"]:
    return torch.tensor([LABELS.index(n) for n in names])


class SpeciesClassifier(nn.Module):
    def __init__(self, in_dim: int = 12):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 16), nn.ReLU(), nn.Linear(16, len(LABELS)))

    def forward(self, feats: Float[torch.Tensor, "batch feat"]) -> Float[torch.Tensor, "batch classes"]:
        return self.backbone(feats)


def target_logits(
    logits: Float[torch.Tensor, "batch classes"], target_idx: Int[torch.Tensor, "batch"]
) -> Float[torch.Tensor, "batch"]:
    return logits[0][target_idx]


def score_batch(model, feats, target_names):
    with torch.no_grad():
        logits = model(feats)
    return logits, target_logits(logits, resolve_targets(target_names))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SpeciesClassifier()
    feats = torch.randn(4, 12)
    logits, picked = score_batch(model, feats, ["deer", "deer", "fox", "deer"])
    print("target logits :", picked.tolist())
    print("per-image deer:", logits[:, 1].tolist())
