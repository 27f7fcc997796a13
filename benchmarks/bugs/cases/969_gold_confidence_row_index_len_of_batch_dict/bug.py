from typing import Dict

import torch
import torch.nn as nn
from jaxtyping import Float, Int


class PatchClassifier(nn.Module):
    def __init__(self, in_dim: int, num_classes: int):
        super().__init__()
        self.head = nn.Linear(in_dim, num_classes)

    def forward(self, batch: Dict[str, torch.Tensor]) -> Float[torch.Tensor, "batch classes"]:
        return self.head(batch["pixel_values"].flatten(1))


def gold_confidence(
    probs: Float[torch.Tensor, "batch classes"],
    labels: Int[torch.Tensor, "batch"],
    batch: Dict[str, torch.Tensor],
) -> Float[torch.Tensor, "batch"]:
    return probs[range(len(batch)), labels]


@torch.no_grad()
def calibration_report(model: nn.Module, batch: Dict[str, torch.Tensor], labels: Int[torch.Tensor, "batch"]):
    probs = model(batch).softmax(dim=-1)
    conf = gold_confidence(probs, labels, batch)
    return conf.mean().item(), conf


if __name__ == "__main__":
    torch.manual_seed(0)
    model = PatchClassifier(in_dim=12, num_classes=5)
    batch = {"pixel_values": torch.randn(4, 3, 2, 2)}
    labels = torch.tensor([3, 0, 4, 1])
    mean_conf, conf = calibration_report(model, batch, labels)
    print("per-example gold confidence:", conf)
    print("mean:", mean_conf)
